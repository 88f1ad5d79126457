"""Issue 11: at most REQUEST_SLOTS pages and COMMAND_SLOTS commands work in Django at once (config.slots);
the rest wait their turn, and a page that takes long never holds a command up. On SQLite one command at a
time unless COMMAND_SLOTS says otherwise."""

import asyncio

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import RequestFactory

from config.slots import RequestSlots
from tests.deploy.profile import manage, profile_env


class SlowViews:
    """A stand-in for the rest of Django: each request works until the test lets it go."""

    def __init__(self):
        self.working: dict[str, int] = {"GET": 0, "POST": 0}
        self.most: dict[str, int] = {"GET": 0, "POST": 0}
        self.started: list[str] = []
        self.go = asyncio.Event()

    async def __call__(self, request):
        self.working[request.method] += 1
        self.most[request.method] = max(self.most[request.method], self.working[request.method])
        self.started.append(request.path)
        try:
            await self.go.wait()
        finally:
            self.working[request.method] -= 1
        return HttpResponse(request.path)


async def until(condition):
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the requests never got there")


@pytest.fixture
def slots(settings):
    settings.REQUEST_SLOTS = settings.COMMAND_SLOTS = 3
    views = SlowViews()
    return RequestSlots(views), views


async def test_no_more_pages_or_commands_work_at_once_than_the_slots_and_every_one_is_answered(slots):
    middleware, views = slots
    factory = RequestFactory()
    requests = [factory.get(f"/page/{n}/") for n in range(8)]
    requests += [factory.post(f"/command/{n}/") for n in range(8)]
    answers = [asyncio.create_task(middleware(request)) for request in requests]
    await until(lambda: len(views.started) == 6)
    assert views.working == {"GET": 3, "POST": 3}
    views.go.set()
    done = await asyncio.gather(*answers)
    assert [answer.content.decode() for answer in done] == [request.path for request in requests]
    assert views.most == {"GET": 3, "POST": 3}


async def test_requests_wait_their_turn_first_come_first_served(slots):
    middleware, views = slots
    factory = RequestFactory()
    answers = [asyncio.create_task(middleware(factory.post(f"/command/{n}/"))) for n in range(6)]
    await until(lambda: len(views.started) == 3)
    views.go.set()
    await asyncio.gather(*answers)
    assert views.started == [f"/command/{n}/" for n in range(6)]


async def test_pages_that_take_long_never_hold_a_command_up(slots):
    middleware, views = slots
    factory = RequestFactory()
    pages = [asyncio.create_task(middleware(factory.get(f"/archive/{n}/"))) for n in range(5)]
    await until(lambda: views.working["GET"] == 3)
    command = asyncio.create_task(middleware(factory.post("/command/")))
    await until(lambda: "/command/" in views.started)
    views.go.set()
    await asyncio.gather(command, *pages)


async def test_a_request_given_up_while_waiting_gives_no_slot_away(slots):
    middleware, views = slots
    factory = RequestFactory()
    working = [asyncio.create_task(middleware(factory.post(f"/command/{n}/"))) for n in range(3)]
    await until(lambda: views.working["POST"] == 3)
    waiting = asyncio.create_task(middleware(factory.post("/gone/")))  # its client went away
    await asyncio.sleep(0)
    waiting.cancel()
    late = asyncio.create_task(middleware(factory.post("/late/")))
    views.go.set()
    await asyncio.gather(*working, late)
    assert waiting.cancelled()
    assert "/gone/" not in views.started and views.started[-1] == "/late/"


def test_slots_come_before_django_starts_work_and_after_static_files():
    order = settings.MIDDLEWARE
    assert order.index("config.slots.RequestSlots") == order.index("config.static.StaticFilesMiddleware") + 1


async def test_pages_and_commands_have_slot_counts_of_their_own(settings):
    settings.REQUEST_SLOTS, settings.COMMAND_SLOTS = 3, 1
    views = SlowViews()
    middleware = RequestSlots(views)
    factory = RequestFactory()
    requests = [factory.get(f"/page/{n}/") for n in range(4)]
    requests += [factory.post(f"/command/{n}/") for n in range(3)]
    answers = [asyncio.create_task(middleware(request)) for request in requests]
    await until(lambda: len(views.started) == 4)
    assert views.working == {"GET": 3, "POST": 1}
    views.go.set()
    await asyncio.gather(*answers)
    assert views.most == {"GET": 3, "POST": 1}


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
