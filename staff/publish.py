"""Live push of croupier replacement requests to the duty administrators' screens
(over the ``/ws/duty/`` socket; see ``cashdesk.consumers.DutyConsumer``)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from cashdesk.publish import DUTY_GROUP


def publish_replacements() -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(DUTY_GROUP, {"type": "duty.replacements"})
