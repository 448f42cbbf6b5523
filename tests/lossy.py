"""A channel layer that loses sends on the way, as a full channel or a network blip would."""


def lose_sends(monkeypatch, *modules: str) -> dict:
    """Patch ``get_channel_layer`` in each of ``modules`` (the publishers) so that the next
    ``lost["count"]`` group sends are dropped; returns ``lost`` for the test to set."""
    from channels.layers import get_channel_layer as real

    lost = {"count": 0}

    class Lossy:
        def __init__(self, layer):
            self.layer = layer

        async def group_send(self, group, message):
            if lost["count"] > 0:
                lost["count"] -= 1
                return
            await self.layer.group_send(group, message)

    for module in modules:
        monkeypatch.setattr(f"{module}.get_channel_layer", lambda: Lossy(real()))
    return lost
