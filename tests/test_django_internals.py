"""The Django and asgiref internals that config.threads and config.prepared override or build on, asserted
as they are today (Django 5.2, asgiref 3.13), so that an upgrade which changes them fails here, by name,
instead of the site quietly going back to a thread a request, running its middleware in the event loop, or
reading a prepared read's rows wrongly."""

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
    """RequestThreadsHandler overrides load_middleware and handle, and calls the parts of Django's handle it
    keeps (read_body, create_request, get_response, send_response, listen_for_disconnect), each as Django
    defines it."""
    assert parameters(BaseHandler.load_middleware) == [
        ("self", P.POSITIONAL_OR_KEYWORD, P.empty),
        ("is_async", P.POSITIONAL_OR_KEYWORD, False),
    ]
    scope = [(name, P.POSITIONAL_OR_KEYWORD, P.empty) for name in ("self", "scope", "receive", "send")]
    assert parameters(ASGIHandler.handle) == scope
    assert parameters(ASGIHandler.__call__) == scope
    assert inspect.iscoroutinefunction(ASGIHandler.handle)
    named = {"read_body": ["receive"], "create_request": ["scope", "body_file"], "get_response": ["request"]}
    named |= {"send_response": ["response", "send"], "listen_for_disconnect": ["receive"]}
    for method, names in named.items():
        expected = [(name, P.POSITIONAL_OR_KEYWORD, P.empty) for name in ("self", *names)]
        assert parameters(getattr(ASGIHandler, method)) == expected, method
    assert inspect.iscoroutinefunction(ASGIHandler.read_body)
    assert inspect.iscoroutinefunction(ASGIHandler.send_response)
    assert not inspect.iscoroutinefunction(ASGIHandler.create_request)


def test_djangos_handle_still_does_what_ours_does_in_one_crossing():
    """What RequestThreadsHandler.handle and answer do, in Django's handle and run_get_response: the
    request_started signal, the request made (None and an answer when it is bad), the answer's handler
    class and a file's block size, the answer closed after it is sent."""
    handle = inspect.getsource(ASGIHandler.handle)
    for step in (
        "body_file = await self.read_body(receive)",
        "set_script_prefix(get_script_prefix(scope))",
        "await signals.request_started.asend(sender=self.__class__, scope=scope)",
        "request, error_response = self.create_request(scope, body_file)",
        "asyncio.create_task(self.listen_for_disconnect(receive))",
        "await sync_to_async(response.close)()",
    ):
        assert step in handle, step
    run = inspect.getsource(ASGIHandler.run_get_response)
    assert "response._handler_class = self.__class__" in run
    assert "response.block_size = self.chunk_size" in run


def test_djangos_handler_still_loads_an_async_chain_which_ours_makes_sync():
    """Django's ASGI handler asks load_middleware for an async chain; ours asks for a sync one, run in the
    request's thread by get_response (RequestThreadsHandler.answer)."""
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


def test_a_compilers_rows_are_read_from_the_state_its_as_sql_leaves():
    """What config.prepared builds on: Django's rows are read with the SQL from the compiler's `as_sql` (a
    prepared read's gives the SQL compiled once) and with the state `as_sql` leaves on the compiler
    (`COMPILED_STATE`, which a prepared read puts back), through the query's `get_compiler`."""
    from django.db.models.query import ModelIterable
    from django.db.models.sql.compiler import SQLCompiler

    from config.prepared import COMPILED_STATE

    iterable = inspect.getsource(ModelIterable.__iter__)
    assert "compiler = queryset.query.get_compiler(using=db)" in iterable
    for name in ("select", "klass_info", "annotation_col_map"):
        assert f"compiler.{name}" in iterable
    execute = inspect.getsource(SQLCompiler.execute_sql)
    assert "sql, params = self.as_sql()" in execute
    assert {"col_count", "has_extra_select"} <= {n for n in COMPILED_STATE if f"self.{n}" in execute}
    assert "self.select[0 : self.col_count]" in inspect.getsource(SQLCompiler.results_iter)
    setup = inspect.getsource(SQLCompiler.setup_query) + inspect.getsource(SQLCompiler.pre_sql_setup)
    assert "self.select, self.klass_info, self.annotation_col_map = self.get_select(" in setup
    assert "self.col_count = len(self.select)" in setup
    assert "self.has_extra_select = bool(extra_select)" in setup
