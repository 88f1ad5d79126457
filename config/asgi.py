"""ASGI entry point: HTTP through Django (static files: ServeStatic's middleware), websockets: Channels."""

import os

from django.core.asgi import get_asgi_application

from config.env import BadEnvironment

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
try:
    django_asgi_app = get_asgi_application()
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

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
