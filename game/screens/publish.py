"""Rendering a table for its screens: the renderer of the ``table.<id>`` topics.

After a commit that changed a table, the realtime kernel (``feed.send``) calls
:func:`table_message` once with everything the transaction said of it; it renders each
(fragment, language) pair some screen watches (``feed.presence``) — the table screens'
``live`` fragment and the dashboards' ``tile`` — once, and the kernel publishes them in one
message. A round command hands over the live row it locked (``floor.changes.table_changed``
``state=``): rendered from it, nothing is read again (the board comes from the per-process
cache while its version stands). Fragments are complete (never deltas) and carry the
topic's sequence, so a lost one heals with the next one or the screen's ``sync``.
"""

from __future__ import annotations

import functools

from django.template.loader import render_to_string
from django.utils import timezone, translation

from feed import metrics, presence
from floor.changes import table_id_of, table_topic
from game.models import LiveTable
from game.screens.presenters import screen_view
from game.selectors import snapshot_of, table_snapshot
from game.templatetags.live import shared_parts
from staff.permissions import At, acts_at
from staff.roles import Role, TableRole

# The table's screens: one fragment per kind of screen, each rendering only the controls its
# role may use (staff.permissions): a control is not sent to a screen that may not use it.
# "live" is the dealing croupier's tablet.
LIVE_FRAGMENTS = {
    TableRole.DEALING_CROUPIER: "live",
    TableRole.OBSERVING_CROUPIER: "live-observer",
    TableRole.INSPECTOR: "live-inspector",
    Role.DUTY_ADMINISTRATOR: "live-duty",
    Role.PIT_BOSS: "live-pitboss",
}
SCREEN_ROLES = {fragment: role for role, fragment in LIVE_FRAGMENTS.items()}
TEMPLATES = {
    **dict.fromkeys(SCREEN_ROLES, "game/live.html#live"),
    "tile": "game/live.html#tile",
}

__all__ = ["live_fragment", "render_fragment", "table_message", "table_topic", "table_view"]


def live_fragment(role: str) -> str:
    """The table fragment a screen of ``role`` shows."""
    return LIVE_FRAGMENTS[role]


@functools.cache
def _controls(role: str) -> dict[str, bool]:
    """The table acts a screen of ``role`` renders controls for (a table act asks the role
    alone, so once per role and process)."""
    return acts_at(None, At(None, role))


def render_fragment(view: dict, fragment: str, language: str) -> str:
    metrics.RENDERS.labels(fragment).inc()
    role = SCREEN_ROLES.get(fragment)
    if role is not None:
        view = {**view, "may": _controls(role)}
    with translation.override(language):
        return render_to_string(TEMPLATES[fragment], view)


def table_view(table_id: int) -> dict | None:
    """The current view of a table's screens (None: no such table)."""
    snapshot = table_snapshot(table_id)
    if snapshot is None:
        return None
    return screen_view(snapshot, now_iso=timezone.now().isoformat())


def _committed_view(seq: int, events: list[dict]) -> dict | None:
    """The view from what the command transaction committed, when every change of the table
    in it handed over its locked live row (else None: read it)."""
    rows = [event.get("state") for event in events]
    if not rows or not all(isinstance(row, LiveTable) for row in rows):
        return None
    live_row = rows[-1]
    moved = next((e["feed"] for e in reversed(events) if e.get("feed")), None)
    if moved is None:
        feed = live_row.table.feed  # loaded with the lock; not moved in the transaction
        moved = (feed.board, feed.epoch)
    return screen_view(snapshot_of(live_row, seq, moved), now_iso=timezone.now().isoformat())


def table_message(topic: str, seq: int, events: list[dict]) -> tuple[dict[str, str], bool]:
    """The ``feed`` renderer of a table topic: one complete fragment per watched pair."""
    pairs = sorted(p for p in presence.watched(topic) if p[0] in TEMPLATES)
    if not pairs:
        return {}, False
    view = _committed_view(seq, events) or table_view(table_id_of(topic))
    if view is None:
        return {}, False
    with shared_parts():  # what every kind shows is rendered once, each kind's controls apart
        fragments = {
            presence.pair(fragment, language): render_fragment(view, fragment, language)
            for fragment, language in pairs
        }
    return fragments, False
