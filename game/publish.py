"""Publishing a table's state: render each screen's fragment once per change, fan it out.

One group per table (``table-<id>``) carries one message per change holding the complete,
versioned fragments for every screen kind and every interface language; each consumer
forwards the one its screen and its person's language need. Fragments are complete (never
deltas), so a lost message heals itself with the next one.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from tables.models import Table

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def render_fragments(table: Table, languages=None) -> dict:
    """``{"version": n, "html": {lang: {"live": ..., "tile": ...}}}`` for one table."""
    from game.presenters import table_view

    view = table_view(table)
    html = {}
    for code in languages or [code for code, _ in settings.LANGUAGES]:
        with translation.override(code):
            html[code] = {
                "live": render_to_string("game/live.html#live", view),
                "tile": render_to_string("game/live.html#tile", view),
            }
    return {"version": view["version"], "html": html}


def publish_table(table_id: int) -> None:
    """Send the new state of ``table_id`` to every screen that shows it."""
    table = Table.objects.get(pk=table_id)
    message = render_fragments(table)
    try:
        async_to_sync(get_channel_layer().group_send)(
            table_group(table_id), {"type": "table.state", "table_id": table_id, **message}
        )
    except Exception:  # a screen resyncs on reconnect; a lost publish must not undo a command
        log.exception("publishing table %s failed", table_id)
