"""The Django and asgiref internals that config.threads overrides or builds on, asserted as they are today
(Django 5.2, asgiref 3.13), so that an upgrade which changes them fails here, by name, instead of the site
quietly going back to a thread a request or running its middleware in the event loop."""

import asyncio
import inspect
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler

from config.threads import RequestThreadsHandler

P = inspect.Parameter


def parameters(function) -> list[tuple[str, object, object]]:
    """Each parameter's name, kind and default."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_the_handler_methods_it_overrides_keep_their_signatures():
    """RequestThreadsHandler overrides load_middleware and get_response_async and calls handle, each as
    Django defines it."""
    assert parameters(BaseHandler.load_middleware) == [
        ("self", P.POSITIONAL_OR_KEYWORD, P.empty),
        ("is_async", P.POSITIONAL_OR_KEYWORD, False),
    ]
    assert parameters(BaseHandler.get_response_async) == [
        ("self", P.POSITIONAL_OR_KEYWORD, P.empty),
        ("request", P.POSITIONAL_OR_KEYWORD, P.empty),
    ]
    scope = [(name, P.POSITIONAL_OR_KEYWORD, P.empty) for name in ("self", "scope", "receive", "send")]
    assert parameters(ASGIHandler.handle) == scope
    assert parameters(ASGIHandler.__call__) == scope
    assert inspect.iscoroutinefunction(ASGIHandler.handle)
    assert inspect.iscoroutinefunction(ASGIHandler.get_response_async)


def test_djangos_handler_still_loads_an_async_chain_which_ours_makes_sync():
    """Django's ASGI handler asks load_middleware for an async chain; ours asks for a sync one, run in the
    request's thread by get_response_async."""
    assert not asyncio.iscoroutinefunction(RequestThreadsHandler()._middleware_chain)
    assert asyncio.iscoroutinefunction(ASGIHandler()._middleware_chain)
    assert "self.load_middleware(is_async=True)" in inspect.getsource(ASGIHandler.__init__)


def test_djangos_handler_still_runs_each_request_in_a_thread_sensitive_context_of_its_own():
    """What RequestThreadsHandler.__call__ replaces: Django opens a context (a new thread) around handle."""
    assert "async with ThreadSensitiveContext():" in inspect.getsource(ASGIHandler.__call__)


def test_a_thread_sensitive_context_takes_an_executor_and_sync_code_runs_in_it():
    """asgiref's ThreadSensitiveContext(executor=...): thread-sensitive sync code inside runs in the
    caller's executor, also inside an enclosing context, and the executor outlives the context."""
    assert parameters(ThreadSensitiveContext) == [("executor", P.KEYWORD_ONLY, None)]
    lent = ThreadPoolExecutor(max_workers=1)

    async def where() -> list[int]:
        seen = []
        async with ThreadSensitiveContext():  # an enclosing context, as Channels' or a test's
            for _ in range(2):
                async with ThreadSensitiveContext(executor=lent):
                    seen.append(await sync_to_async(threading.get_ident, thread_sensitive=True)())
        return seen

    seen = asyncio.run(where())
    assert seen[0] == seen[1] != threading.main_thread().ident
    assert lent.submit(threading.get_ident).result() == seen[0]  # not shut down by the context
    lent.shutdown()
