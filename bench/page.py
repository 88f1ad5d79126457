"""The encounter page at size: the storyguide's control panel and a player's page for one Ars Magica
encounter of N combatants while declarations are open (the storyguide's "Declare for NPCs" panel is on
the page, the heaviest state of the page).

Run: `.venv/bin/python bench/page.py` (`--combatants 5 20 40`, `--npcs 3 30`, `--repeat 7`). Each table
is bench/seed.py's, made through the services in a SQLite file in /tmp: K bandits (3, the
fan-out bench's tables, and 30, a storyguide's crowd) and players with a companion each for the rest.
Each figure is the median of `--repeat` requests through Django's test client with the site's own
middleware, in this one process, with the garbage collector set as the server sets it (config.collector):
the process's CPU time and the wall time per request, and the page's size. Not under Django's test
environment, whose template instrumentation copies every template's context for the test client and so
adds about a third. `make test` runs it at 5 combatants once (tests/test_benches.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(client, url: str, repeat: int) -> tuple[float, float, int]:
    """Median CPU ms, median wall ms and size in bytes of `repeat` GETs of the page."""
    cpu, wall, size = [], [], 0
    for _ in range(repeat):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        response = client.get(url)
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
        assert response.status_code == 200, (url, response.status_code)
        size = len(response.content)
    return statistics.median(cpu), statistics.median(wall), size


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--combatants", type=int, nargs="+", default=[5, 20, 40])
    parser.add_argument("--npcs", type=int, nargs="+", default=[3, 30], help="how many of them are NPCs")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="covenant-page-") as folder:  # gone with the run
        measure(args, Path(folder) / "bench.sqlite3")


def measure(args, db: Path) -> None:
    """The pages, timed on a new database at `db`."""
    from bench.archive import setup_django
    from bench.seed import make_table

    setup_django(db)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    settings.ALLOWED_HOSTS = ["testserver"]
    from combat.models import Encounter
    from config.collector import settle

    settle()  # the garbage collector as the server sets it once loaded (config/asgi.py)
    python = sys.version.split()[0]
    print(f"encounter page, declarations open, median of {args.repeat}; Python {python}; {db}")
    print("combatants  NPCs  who         CPU ms   wall ms   size KiB")
    for npcs in args.npcs:
        for size in args.combatants:
            bandits = min(npcs, size - 1)
            table = make_table(f"page{size}n{npcs}", 0, size - bandits, bandits)
            encounter = Encounter.objects.get(pk=table["encounter"])
            count = encounter.combatants.count()
            shown = encounter.combatants.filter(character__is_npc=True).count()
            for who, username, path in (
                ("storyguide", table["storyguide"], f"/encounters/{encounter.pk}/"),
                ("player", table["players"][0], f"/encounters/{encounter.pk}/arsmagica/play/"),
            ):
                client = Client()
                client.force_login(get_user_model().objects.get(username=username))
                cpu, wall, length = timed(client, path, args.repeat)
                print(f"{count:10d}  {shown:4d}  {who:10s}  {cpu:7.1f}  {wall:8.1f}  {length / 1024:9.0f}")


if __name__ == "__main__":
    main()
