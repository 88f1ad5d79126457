"""config.admission: commands wait for a place or are refused at once (503, Retry-After, the message);
pages, sockets, static files and other posts are never refused."""

import asyncio

import pytest
from django.urls import reverse

from combat.answers import busy_message
from config.admission import Admission, policy, refusal


class SlowApp:
    """An ASGI app that answers 200 once `release` is set, counting who got in."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.entered: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.entered.append(scope["path"])
        await self.release.wait()
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def one_held(wait_ms: int, held: float | None = None) -> tuple[SlowApp, Admission, asyncio.Task]:
    """A slow app behind one place, and a first command holding that place (the caller sends the second)."""
    inner = SlowApp()
    app = Admission(inner, slots=1, wait_ms=wait_ms)
    if held is not None:
        app.held = held  # seconds each command holds its place
    first = asyncio.create_task(call(app, scope()))
    await asyncio.sleep(0)  # the first is in
    return inner, app, first


def scope(method="POST", path="/encounters/7/correct/", htmx=True, kind="http"):
    headers = [(b"hx-request", b"true")] if htmx else []
    return {"type": kind, "method": method, "path": path, "headers": headers}


async def call(app, request_scope) -> dict:
    """The answer's status, headers and body."""
    answer = {"body": b""}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = dict(message["headers"])
        else:
            answer["body"] += message.get("body", b"")

    await app(request_scope, receive, send)
    return answer


def test_a_command_beyond_the_wait_is_refused_at_once_with_retry_after():
    async def run():
        inner, app, first = await one_held(wait_ms=100, held=0.08)  # one waiting is 80 ms, a second 160 ms
        second = asyncio.create_task(call(app, scope()))  # waits: 80 ms ahead of it
        await asyncio.sleep(0)
        refused = await asyncio.wait_for(call(app, scope()), 0.05)  # 160 ms ahead: at once
        assert inner.entered == ["/encounters/7/correct/"]  # the refused one never reached Django
        inner.release.set()
        assert (await first)["status"] == 200
        assert (await second)["status"] == 200
        return refused, inner

    refused, inner = asyncio.run(run())
    assert refused["status"] == 503
    assert refused["headers"][b"retry-after"] == b"1"
    assert busy_message(1).encode() in refused["body"]
    assert b'class="form-error"' in refused["body"]  # the fragment beside the button
    assert len(inner.entered) == 2


def test_a_plain_form_refused_gets_a_page_saying_so():
    async def run():
        inner, app, first = await one_held(wait_ms=0)
        refused = await call(app, scope(htmx=False))
        inner.release.set()
        await first
        return refused

    refused = asyncio.run(run())
    assert refused["status"] == 503
    assert b"<h1>The table is busy</h1>" in refused["body"]
    assert b"Nothing was changed" in refused["body"]
    assert refused["headers"][b"content-security-policy"] == policy()


def test_a_refusal_sends_the_policy_the_middleware_sends_on_a_page(client):
    """The 503 never reaches django-csp's middleware: its header is built from the same settings, alike."""
    page = client.get(reverse("login"))
    _, headers, _ = refusal(scope(), 1)
    assert page.status_code == 200
    assert dict(headers)[b"content-security-policy"].decode() == page["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]  # the site's policy, not an empty one


@pytest.mark.parametrize(
    "request_scope",
    [
        scope(method="GET", path="/encounters/7/"),  # a page
        scope(method="HEAD", path="/encounters/7/"),
        scope(method="GET", path="/static/css/covenant.css"),  # a static file
        scope(method="POST", path="/accounts/login/"),  # another post
        scope(method="POST", path="/sagas/3/time/pass/"),
        {"type": "websocket", "path": "/ws/encounters/7/", "headers": []},  # a socket
    ],
    ids=["page", "head", "static", "login", "saga", "socket"],
)
def test_only_commands_wait_or_are_refused(request_scope):
    assert not Admission.is_command(request_scope)

    async def run():
        inner = SlowApp()
        inner.release.set()
        app = Admission(inner, slots=1, wait_ms=0)
        app.busy = 1  # every place taken: a command now would be refused
        if request_scope["type"] == "websocket":
            await app(request_scope, None, None)
            return inner.entered
        assert (await call(app, request_scope))["status"] == 200
        return inner.entered

    assert asyncio.run(run()) == [request_scope["path"]]


def test_commands_take_their_turns_first_come_first_served():
    async def run():
        order = []

        async def app_inner(request_scope, receive, send):
            order.append(request_scope["path"])
            await asyncio.sleep(0.01)
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})

        app = Admission(app_inner, slots=1, wait_ms=5000)
        paths = [f"/encounters/{n}/correct/" for n in range(5)]
        answers = await asyncio.gather(*(call(app, scope(path=p)) for p in paths))
        assert [a["status"] for a in answers] == [200] * 5
        assert app.busy == 0 and not app.queue
        return order, paths

    order, paths = asyncio.run(run())
    assert order == paths


def test_a_waiting_command_whose_client_goes_gives_its_place_back():
    async def run():
        inner, app, first = await one_held(wait_ms=5000)
        gone = asyncio.create_task(call(app, scope(path="/encounters/8/correct/")))
        await asyncio.sleep(0)
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
        assert not app.queue
        inner.release.set()
        await first
        assert app.busy == 0
        assert (await call(app, scope()))["status"] == 200

    asyncio.run(run())


def test_a_command_that_waited_too_long_is_refused():
    """The process slowed down under a queue it had admitted: past twice the wait, a refusal, not a hang."""

    async def run():
        inner, app, first = await one_held(wait_ms=50, held=0.01)
        late = await asyncio.wait_for(call(app, scope()), 1)
        inner.release.set()
        await first
        return late, app

    late, app = asyncio.run(run())
    assert late["status"] == 503 and late["headers"][b"retry-after"] == b"1"
    assert app.busy == 0 and not app.queue
