"""Issue 11: at most REQUEST_SLOTS pages and COMMAND_SLOTS commands work in Django at once (config.slots);
the rest wait their turn before Django lends them a thread, and a page that takes long never holds a
command up. On SQLite one command at a time unless COMMAND_SLOTS says otherwise."""

import asyncio

import pytest

from config.slots import RequestSlots
from config.threads import RequestThreadsHandler
from tests.deploy.profile import manage, profile_env


class SlowApp:
    """A stand-in for Django behind the slots: each request works until the test lets it go."""

    def __init__(self):
        self.working: dict[str, int] = {"GET": 0, "POST": 0}
        self.most: dict[str, int] = {"GET": 0, "POST": 0}
        self.started: list[str] = []
        self.answered: list[str] = []
        self.go = asyncio.Event()

    async def __call__(self, scope, receive, send):
        method = scope["method"]
        self.working[method] += 1
        self.most[method] = max(self.most[method], self.working[method])
        self.started.append(scope["path"])
        try:
            await self.go.wait()
        finally:
            self.working[method] -= 1
        self.answered.append(scope["path"])


def request(slots: RequestSlots, method: str, path: str) -> asyncio.Task:
    """One HTTP request, as Daphne calls the application, under way."""
    return asyncio.create_task(slots({"type": "http", "method": method, "path": path}, None, None))


async def until(condition):
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the requests never got there")


@pytest.fixture
def slots(settings):
    settings.REQUEST_SLOTS = settings.COMMAND_SLOTS = 3
    app = SlowApp()
    return RequestSlots(app), app


async def test_no_more_pages_or_commands_work_at_once_than_the_slots_and_every_one_is_answered(slots):
    middleware, app = slots
    paths = [("GET", f"/page/{n}/") for n in range(8)] + [("POST", f"/command/{n}/") for n in range(8)]
    answers = [request(middleware, method, path) for method, path in paths]
    await until(lambda: len(app.started) == 6)
    assert app.working == {"GET": 3, "POST": 3}
    app.go.set()
    await asyncio.gather(*answers)
    assert sorted(app.answered) == sorted(path for _, path in paths)
    assert app.most == {"GET": 3, "POST": 3}


async def test_requests_wait_their_turn_first_come_first_served(slots):
    middleware, app = slots
    answers = [request(middleware, "POST", f"/command/{n}/") for n in range(6)]
    await until(lambda: len(app.started) == 3)
    app.go.set()
    await asyncio.gather(*answers)
    assert app.started == [f"/command/{n}/" for n in range(6)]


async def test_pages_that_take_long_never_hold_a_command_up(slots):
    middleware, app = slots
    pages = [request(middleware, "GET", f"/archive/{n}/") for n in range(5)]
    await until(lambda: app.working["GET"] == 3)
    command = request(middleware, "POST", "/command/")
    await until(lambda: "/command/" in app.started)
    app.go.set()
    await asyncio.gather(command, *pages)


async def test_a_request_given_up_while_waiting_gives_no_slot_away(slots):
    middleware, app = slots
    working = [request(middleware, "POST", f"/command/{n}/") for n in range(3)]
    await until(lambda: app.working["POST"] == 3)
    waiting = request(middleware, "POST", "/gone/")  # its client went away
    await asyncio.sleep(0)
    waiting.cancel()
    late = request(middleware, "POST", "/late/")
    app.go.set()
    await asyncio.gather(*working, late)
    assert waiting.cancelled()
    assert "/gone/" not in app.started and app.started[-1] == "/late/"


def test_a_request_waits_for_its_slot_before_django_lends_it_a_thread(settings):
    """However many wait, the threads at work (and their database connections) are no more than the slots."""
    settings.DEBUG = True  # else config.asgi wants collectstatic's manifest, which a fresh checkout lacks
    from config.asgi import application

    http = application.application_mapping["http"]
    assert isinstance(http, RequestSlots)
    assert isinstance(http.app, RequestThreadsHandler)
    assert "config.slots.RequestSlots" not in settings.MIDDLEWARE


async def test_pages_and_commands_have_slot_counts_of_their_own(settings):
    settings.REQUEST_SLOTS, settings.COMMAND_SLOTS = 3, 1
    app = SlowApp()
    middleware = RequestSlots(app)
    paths = [("GET", f"/page/{n}/") for n in range(4)] + [("POST", f"/command/{n}/") for n in range(3)]
    answers = [request(middleware, method, path) for method, path in paths]
    await until(lambda: len(app.started) == 4)
    assert app.working == {"GET": 3, "POST": 1}
    app.go.set()
    await asyncio.gather(*answers)
    assert app.most == {"GET": 3, "POST": 1}


SHOW_SLOTS = "from django.conf import settings; print(settings.REQUEST_SLOTS, settings.COMMAND_SLOTS)"


@pytest.mark.parametrize(
    ("database", "changes", "shown"),
    [
        ("sqlite", {}, "4 1"),
        ("sqlite", {"REQUEST_SLOTS": "6"}, "6 1"),
        ("sqlite", {"COMMAND_SLOTS": "3"}, "4 3"),
        ("postgres", {}, "4 4"),
        ("postgres", {"REQUEST_SLOTS": "6"}, "6 6"),
        ("postgres", {"COMMAND_SLOTS": "2"}, "4 2"),
    ],
)
def test_commands_go_one_at_a_time_on_sqlite_and_as_many_as_pages_on_postgresql(database, changes, shown):
    """SQLite takes one writer at a time; PostgreSQL as many as there are connections."""
    env = profile_env(**changes)
    if database == "sqlite":
        env.pop("DATABASE_URL")
    result = manage("shell", "--no-imports", "-c", SHOW_SLOTS, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == shown


@pytest.mark.parametrize("name", ["REQUEST_SLOTS", "COMMAND_SLOTS"])
@pytest.mark.parametrize("value", ["0", "many", "-1", "2.5", "101"])
def test_a_slot_count_covenant_cannot_use_is_refused_in_one_line(name, value):
    result = manage("check", env=profile_env(**{name: value}))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"Covenant will not start: {name} must be a whole number from 1 to 100, not {value!r}"
    )
