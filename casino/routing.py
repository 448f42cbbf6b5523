"""WebSocket routes. Every consumer checks role and assignment in ``connect``."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

import floor.converters  # noqa: F401  (registers <id:...>, the bounded record id)
from cashdesk.consumers import DutyConsumer
from game.screens.consumers import InspectorConsumer, PitConsumer, TableConsumer

CLOSE_NOT_FOUND = 4404


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other socket path — an unknown route, or an id no record can have (0, beyond
    2⁶³ − 1, which ``<id:...>`` does not match): accepted only to be closed at once with
    4404, like a page's 404, rather than an error in the server."""

    async def connect(self):
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)


websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi(), name="ws-table"),
    path("ws/inspector/", InspectorConsumer.as_asgi(), name="ws-inspector"),
    path("ws/duty/", DutyConsumer.as_asgi(), name="ws-duty"),
    path("ws/pit/", PitConsumer.as_asgi(), name="ws-pit"),
    re_path(r"", NoSuchSocket.as_asgi(), name="ws-not-found"),  # last: everything else
]
