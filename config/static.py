"""ServeStatic as the static file server: quiet and 404-answering in development, refusing to start
in production before `collectstatic`."""

import warnings

from django.conf import settings
from django.http import Http404
from servestatic.middleware import ServeStaticMiddleware
from servestatic.responders import MissingFileError

from .env import BadEnvironment


class StaticFilesMiddleware(ServeStaticMiddleware):
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


def require_collected_static() -> None:
    """With DEBUG false, pages name hashed files from collectstatic's manifest: no manifest, no start."""
    if settings.DEBUG:
        return
    manifest = settings.STATIC_ROOT / "staticfiles.json"
    if not manifest.is_file():
        raise BadEnvironment(f"no {manifest}: run `manage.py collectstatic --noinput` first (STATIC_ROOT)")
