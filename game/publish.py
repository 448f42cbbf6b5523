"""Publishing a table: after a commit, render each watched (fragment, language) pair once
and send it to the screens that show it.

``floor.changes`` calls :func:`publish_changes` once per committed transaction with the
tables it changed. For each table, one read (``game.selectors.table_snapshot``: one query
when only the round changed) and one render per (fragment, language) pair that a connected
screen watches (``floor.presence``) — the table screens' ``live`` fragment and the
inspector's ``tile`` — each sent to its own group (``floor.groups``). Fragments are complete
(never deltas) and carry the table's screen sequence, so a lost one heals with the next one
or the screen's ``sync``.
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import timezone, translation

from floor import metrics, presence
from floor.changes import Changes
from floor.groups import fragment_group
from game.models import LiveTable
from game.presenters import screen_view
from game.selectors import snapshot_of, table_snapshot

log = logging.getLogger(__name__)

TEMPLATES = {"live": "game/live.html#live", "tile": "game/live.html#tile"}


def table_topic(table_id: int) -> str:
    """The presence topic of a table's screens."""
    return f"table.{int(table_id)}"


def render_fragment(view: dict, fragment: str, language: str) -> str:
    metrics.RENDERS.labels(fragment).inc()
    with translation.override(language):
        return render_to_string(TEMPLATES[fragment], view)


def table_view(table_id: int) -> dict | None:
    """The current view of a table's screens (None: no such table)."""
    snapshot = table_snapshot(table_id)
    if snapshot is None:
        return None
    return screen_view(snapshot, now_iso=timezone.now().isoformat())


def publish_table(table_id: int, *, live_row=None, feed=None) -> int:
    """Send the new state of ``table_id`` to every screen that shows it; returns how many
    fragments were rendered. ``live_row`` with ``feed`` ``(seq, board, epoch)``: the state a
    command transaction committed (``floor.changes``), used instead of reading it again."""
    pairs = presence.watched(table_topic(table_id))
    if not pairs:
        return 0
    started = time.perf_counter()
    if isinstance(live_row, LiveTable) and feed is not None:
        view = screen_view(snapshot_of(live_row, feed), now_iso=timezone.now().isoformat())
    else:
        view = table_view(table_id)
    if view is None:
        return 0
    sends = [
        (
            fragment_group(table_id, fragment, language),
            {
                "type": "screen.fragment",
                "table_id": table_id,
                "fragment": fragment,
                "seq": view["seq"],
                "html": render_fragment(view, fragment, language),
            },
        )
        for fragment, language in sorted(pairs)
        if fragment in TEMPLATES
    ]
    layer = get_channel_layer()
    for group, message in sends:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # a screen heals at its next sync; a lost send never undoes a commit
            metrics.SEND_FAILURES.inc()
            log.exception("sending %s failed", group)
    metrics.PUBLISH_SECONDS.observe(time.perf_counter() - started)
    return len(pairs)


def publish_changes(changes: Changes) -> None:
    """The ``floor.changes`` subscriber of the live tables."""
    for table_id in sorted(changes.tables):
        publish_table(
            table_id, live_row=changes.loaded.get(table_id), feed=changes.feeds.get(table_id)
        )
