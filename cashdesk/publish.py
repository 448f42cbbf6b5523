"""Rendering the duty administrators' live floor: the renderer of the ``duty`` topic.

After a commit that changed what it shows (money, alerts, slips, exceptions, replacement
requests, staff), the realtime kernel calls :func:`duty_message` once per transaction; it
renders once per language a duty screen reads. What is pushed is a *delta*, never the whole
floor: the rows of the tables the transaction changed and the small floor-wide parts (open
alerts, replacement requests, slips to issue, open exceptions), each replacing its element on
the screen (``cashdesk/duty_home.html#delta``). It carries the duty topic's sequence, moved in
the transaction; it applies only on top of the one just before it, and the screen asks
(``sync``) after a gap. The full state (``#live``) is sent on connect and when a screen is
too far behind."""

from __future__ import annotations

import logging

from django.template.loader import render_to_string
from django.utils import timezone, translation

from cashdesk import selectors
from cashdesk.models import GamingDayClose, Resolution
from feed import metrics, presence
from feed.sequences import topic_seqs
from floor.changes import DUTY_TOPIC
from floor.gaming import gaming_day_of
from staff.selectors import replacement_panel
from tables.selectors import open_alerts

log = logging.getLogger(__name__)

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
    """The duty topic's sequence now (a full state carries it)."""
    return topic_seqs([DUTY_TOPIC])[DUTY_TOPIC]


def render_duty(context: dict, language: str) -> str:
    metrics.RENDERS.labels("duty").inc()
    with translation.override(language):
        return render_to_string("cashdesk/duty_home.html#live", context)


def render_duty_delta(context: dict, language: str) -> str:
    metrics.RENDERS.labels("duty_delta").inc()
    with translation.override(language):
        return render_to_string("cashdesk/duty_home.html#delta", context)


def duty_message(topic: str, seq: int, events: list[dict]) -> tuple[dict[str, str], bool]:
    """The ``feed`` renderer of the duty topic: one delta per language watched."""
    languages = sorted(lang for fragment, lang in presence.watched(topic) if fragment == "duty")
    if not languages:
        return {}, True
    tables = {table_id for event in events for table_id in event.get("tables", ())}
    context = duty_delta_context(seq=seq, table_ids=tables)
    fragments = {
        presence.pair("duty", language): render_duty_delta(context, language)
        for language in languages
    }
    return fragments, True
