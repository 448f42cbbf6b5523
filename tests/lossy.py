"""A feed that loses messages on the way, as Redis restarting or a network blip would."""


def lose_sends(monkeypatch, *kinds: str) -> dict:
    """Patch the feed's bus (``feed.bus.publish``: every worker's screens, this one's too)
    so that the next ``lost["count"]`` messages of topics of ``kinds`` (``table``, ``duty``;
    none given: any) are dropped; returns ``lost`` for the test to set."""
    from feed import bus

    real = bus.publish
    lost = {"count": 0}

    def lossy(messages):
        kept = []
        for message in messages:
            kind = message.topic.split(".", 1)[0]
            if lost["count"] > 0 and message.seq is not None and (not kinds or kind in kinds):
                lost["count"] -= 1
                continue
            kept.append(message)
        real(kept)

    monkeypatch.setattr(bus, "publish", lossy)
    return lost
