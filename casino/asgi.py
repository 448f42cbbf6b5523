"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets sit behind the exact origin check (casino/origins.py: scheme, host and port) and
the session authentication stack, so every socket knows its user before a consumer sees it.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from casino.origins import ExactOriginValidator  # noqa: E402
from casino.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": ExactOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
