"""ServeStatic as the static file server: quiet and 404-answering in development, refusing to start
in production before `collectstatic`; in a sync middleware chain, only a static path leaves the thread."""

import warnings

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.http import Http404
from servestatic.middleware import ServeStaticMiddleware
from servestatic.responders import MissingFileError

from .env import BadEnvironment


class ServeStatic(ServeStaticMiddleware):
    """ServeStatic's middleware; with DEBUG it serves from the apps' folders, so a missing STATIC_ROOT
    is no news, and a path it cannot serve (`/static/..%2f..`) is a 404 as in production, not a 500."""

    def __init__(self, get_response=None, settings=settings):
        with warnings.catch_warnings():
            if settings.DEBUG:
                warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
            super().__init__(get_response, settings)

    async def __call__(self, request):
        try:
            return await super().__call__(request)
        except MissingFileError as missing:
            raise Http404("No such static file") from missing


class StaticFilesMiddleware:
    """ServeStatic's middleware (`ServeStatic`, async only) in a sync chain (config.threads): a path under
    the static prefix goes to it, in the event loop, and on through the chain in the request's thread if it
    is no file; any other request goes straight on, without crossing to the event loop and back."""

    sync_capable, async_capable = True, False

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.static = ServeStatic(sync_to_async(get_response, thread_sensitive=True))

    def __call__(self, request):
        if request.path_info.startswith(self.static.static_prefix):
            return async_to_sync(self.static)(request)
        return self.get_response(request)


def require_collected_static() -> None:
    """With DEBUG false, pages name hashed files from collectstatic's manifest: no manifest, no start."""
    if settings.DEBUG:
        return
    manifest = settings.STATIC_ROOT / "staticfiles.json"
    if not manifest.is_file():
        raise BadEnvironment(f"no {manifest}: run `manage.py collectstatic --noinput` first (STATIC_ROOT)")
