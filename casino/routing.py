"""WebSocket routes. Every consumer checks role and assignment in ``connect``."""

from django.urls import path

from cashdesk.consumers import DutyConsumer
from game.consumers import InspectorConsumer, PitConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi(), name="ws-table"),
    path("ws/inspector/", InspectorConsumer.as_asgi(), name="ws-inspector"),
    path("ws/duty/", DutyConsumer.as_asgi(), name="ws-duty"),
    path("ws/pit/", PitConsumer.as_asgi(), name="ws-pit"),
]
