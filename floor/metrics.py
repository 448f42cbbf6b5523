"""The live pipeline's metrics moved to the realtime kernel (``feed.metrics``); these names
stay importable from here."""

from feed.metrics import (  # noqa: F401
    COMMAND_SECONDS,
    COMMANDS,
    HEALED,
    PUBLISH_FAILURES,
    PUBLISH_SECONDS,
    RENDERS,
    SCREEN_LIMITED,
    SCREENS,
    SEND_FAILURES,
    STALE_REFUSALS,
)
