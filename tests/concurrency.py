"""Run one call from many threads at once, as a table's double clicks and second tabs do."""

import threading

from django.db import connection


def run_together(command, count: int) -> list:
    """Call `command(index)` from `count` threads released together; what each returned or raised."""
    start = threading.Barrier(count)
    results: list = [None] * count

    def one(index):
        start.wait()
        try:
            results[index] = command(index)
        except Exception as error:  # noqa: BLE001 - the caller inspects what each thread got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
