"""ASGI entry point: HTTP through Django (a command first admitted or refused at once, config.admission;
each page or command in a thread lent for it, config.threads;
static files: ServeStatic's middleware), websockets: Channels; the garbage collector set for a long-lived
server once all is loaded (config.collector)."""

import os

import django

from config.env import BadEnvironment

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
try:
    django.setup(set_prefix=False)  # what django.core.asgi.get_asgi_application does, then its handler
    from config.admission import Admission
    from config.threads import RequestThreadsHandler

    django_asgi_app = Admission(RequestThreadsHandler())
    from config.sqlite import hold_open
    from config.static import require_collected_static

    require_collected_static()
    hold_open()
except BadEnvironment as refusal:
    raise SystemExit(f"Covenant will not start: {refusal}") from None

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from combat.routing import websocket_urlpatterns  # noqa: E402
from config.collector import settle  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
settle()
