"""Answers that stream: a generator's pieces sent as they come, under ASGI (Daphne) as under WSGI.

Under ASGI Django would read a plain generator to its end before sending anything; an async generator
that asks for one piece at a time (in the request's thread, for the database) sends each as it is made.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse

from .downloads import as_download


async def _one_at_a_time(pieces: Iterator[bytes]) -> AsyncIterator[bytes]:
    step = sync_to_async(next, thread_sensitive=True)
    while (piece := await step(pieces, None)) is not None:
        yield piece


def streamed(request, pieces: Iterable[bytes], content_type: str, filename: str) -> StreamingHttpResponse:
    """A download of `pieces`, sent piece by piece, saved as `filename`."""
    content = _one_at_a_time(iter(pieces)) if isinstance(request, ASGIRequest) else pieces
    return as_download(StreamingHttpResponse(content, content_type=content_type), filename)
