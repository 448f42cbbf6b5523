"""Prometheus metrics of the live pipeline (prometheus-client).

Served at ``/metrics`` (``floor.views.metrics``) to the addresses in ``METRICS_ALLOWED_IPS``
only (docs/operations.md). With several worker processes set ``PROMETHEUS_MULTIPROC_DIR``
to a directory they share: each process writes its figures there and any of them serves
the sum.
"""

from prometheus_client import Counter, Gauge, Histogram

COMMANDS = Counter(
    "pit_commands_total",
    "Live table commands handled, by action and outcome",
    ["action", "outcome"],
)
STALE_REFUSALS = Counter(
    "pit_stale_refusals_total", "Commands refused because the screen showed an older round version"
)
COMMAND_SECONDS = Histogram(
    "pit_command_seconds",
    "Time to apply one live command (transaction included)",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
PUBLISH_SECONDS = Histogram(
    "pit_publish_seconds",
    "Time to read, render and send one committed change to the screens that show it",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
)
RENDERS = Counter("pit_renders_total", "Fragments rendered for publishing", ["fragment"])
SCREENS = Gauge(
    "pit_screens_connected",
    "Screens connected to this process",
    ["screen"],
    multiprocess_mode="livesum",
)
SEND_FAILURES = Counter(
    "pit_channel_send_failures_total",
    "Publishes to the other workers that failed (their screens heal at sync)",
)
FEED_MESSAGES = Counter(
    "pit_feed_messages_total",
    "Messages of the live feed, by where they came from (published here, or received from "
    "another worker) ",
    ["source"],
)
FEED_MISSED = Counter(
    "pit_feed_full_states_total",
    "Full states a screen was sent instead of a pushed message, by why",
    ["reason"],
)
PUBLISH_FAILURES = Counter(
    "pit_publish_failures_total", "Publishes that raised (the screens heal at their next sync)"
)
HEALED = Counter(
    "pit_sync_resends_total",
    "Full states re-sent because a screen's sync showed it behind",
    ["screen"],
)
SCREEN_LIMITED = Counter(
    "pit_screen_limited_total",
    "Screens closed for sending too many messages too fast (4429)",
    ["screen"],
)
