"""A command made dearer for the bench (bench/settings.py, BENCH_COMMAND_COST_MS): CPU spent in the
command's own thread, as a heavier command would spend it, holding the interpreter lock in turns."""

import time

from django.conf import settings

from config.admission import Admission


class CommandCostMiddleware:
    """Before a command's view (config.admission's commands), spend COMMAND_COST_MS of this thread's CPU."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.cost = settings.COMMAND_COST_MS / 1000

    def __call__(self, request):
        if Admission.is_command({"type": "http", "method": request.method, "path": request.path}):
            until, spins = time.thread_time() + self.cost, 0
            while time.thread_time() < until:  # the heavier command's own work, stood for by counting
                spins += 1
        return self.get_response(request)
