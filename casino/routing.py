"""WebSocket routes. Every consumer checks role and assignment in ``connect``."""

from django.urls import path

import floor.converters  # noqa: F401  (registers <id:...>, the bounded record id)
from cashdesk.consumers import DutyConsumer
from game.consumers import InspectorConsumer, PitConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi(), name="ws-table"),
    path("ws/inspector/", InspectorConsumer.as_asgi(), name="ws-inspector"),
    path("ws/duty/", DutyConsumer.as_asgi(), name="ws-duty"),
    path("ws/pit/", PitConsumer.as_asgi(), name="ws-pit"),
]
