"""Publishing the duty administrators' live screen: after a commit that changed what it shows
(money, alerts, slips, exceptions, replacement requests), render it once per language a
connected duty screen reads and send it to them.

What is pushed is a *delta*, never the whole floor: the rows of the tables the transaction
changed (``Changes.tables``) and the small floor-wide parts (open alerts, replacement
requests, slips to issue, open exceptions), each replacing its element on the screen
(``cashdesk/duty_home.html#delta``). It carries the duty sequence, taken after the commit;
the screen applies a delta only on top of the one just before it, and asks for the full
state (``sync``) after a gap. The full state (``#live``) is sent on connect and on sync."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import timezone, translation

from cashdesk import selectors
from cashdesk.models import GamingDayClose, Resolution
from floor import metrics, presence
from floor.changes import Changes, duty_sequence_next
from floor.gaming import gaming_day_of
from floor.groups import duty_group
from floor.models import Counter
from staff.selectors import replacement_panel
from tables.selectors import open_alerts

log = logging.getLogger(__name__)

DUTY_TOPIC = "duty"
EXCEPTIONS_SHOWN = 200  # the duty home lists this many open exceptions, oldest day first


def _parts(*, seq: int) -> dict:
    """The floor-wide parts of the live part (everything but the table rows)."""
    exceptions = selectors.open_exceptions()
    return {
        "gaming_day": gaming_day_of(timezone.now()),
        "seq": seq,
        "alerts": open_alerts(),
        "exceptions": exceptions[:EXCEPTIONS_SHOWN],
        "exceptions_more": max(0, len(exceptions) - EXCEPTIONS_SHOWN),
        "to_issue": selectors.slips_to_issue()[:EXCEPTIONS_SHOWN],
        "open_replacements": replacement_panel(),
    }


def duty_context(*, seq: int) -> dict:
    """Everything the duty home's live part shows (``cashdesk/duty_home.html#live``)."""
    context = _parts(seq=seq)
    context.update(
        totals=selectors.live_totals(gaming_day=context["gaming_day"]),
        closed_days=GamingDayClose.objects.filter(reopened_at__isnull=True).order_by("-gaming_day")[
            :5
        ],
        resolution_kinds=Resolution.Kind.choices,
    )
    return context


def duty_delta_context(*, seq: int, table_ids) -> dict:
    """What a change of ``table_ids`` pushes (``cashdesk/duty_home.html#delta``): those
    tables' rows and the floor-wide parts, each marked to replace its element."""
    context = _parts(seq=seq)
    table_ids = sorted(table_ids)
    rows = selectors.live_totals(gaming_day=context["gaming_day"], table_ids=table_ids)
    context.update(rows=rows if table_ids else [], oob=True)
    return context


def duty_sequence() -> int:
    """The duty screens' sequence now (a full state sent on connect carries it)."""
    return Counter.objects.filter(name=DUTY_TOPIC).values_list("value", flat=True).first() or 0


def render_duty(context: dict, language: str) -> str:
    metrics.RENDERS.labels("duty").inc()
    with translation.override(language):
        return render_to_string("cashdesk/duty_home.html#live", context)


def render_duty_delta(context: dict, language: str) -> str:
    metrics.RENDERS.labels("duty_delta").inc()
    with translation.override(language):
        return render_to_string("cashdesk/duty_home.html#delta", context)


def publish_changes(changes: Changes) -> None:
    """The ``floor.changes`` subscriber of the duty screens."""
    if not changes.duty:
        return
    languages = sorted(
        lang for fragment, lang in presence.watched(DUTY_TOPIC) if fragment == "duty"
    )
    if not languages:
        return
    context = duty_delta_context(seq=duty_sequence_next(), table_ids=changes.tables)
    layer = get_channel_layer()
    for language in languages:
        message = {
            "type": "screen.fragment",
            "seq": context["seq"],
            "html": render_duty_delta(context, language),
        }
        try:
            async_to_sync(layer.group_send)(duty_group(language), message)
        except Exception:
            metrics.SEND_FAILURES.inc()
            log.exception("sending the duty screen (%s) failed", language)
