"""Live push to the duty administrators' screens: after a cash-desk write commits, every
duty screen is told to re-render its totals (a complete fragment, never a delta)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

DUTY_GROUP = "duty"


def publish_duty() -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(DUTY_GROUP, {"type": "duty.refresh"})
