"""Read paths of the live table."""

import copy

from game.live import TableRound
from game.models import Round


def round_events(round_row: Round):
    return round_row.events.select_related("actor").order_by("seq")


def round_replay(round_row: Round) -> TableRound:
    """Rebuild a round from its event log alone (the opening event, then each command)."""
    events = list(round_events(round_row))
    opening = events[0].payload["opening"]
    return TableRound.replay(opening, [event.payload["command"] for event in events[1:]])


def round_replay_steps(round_row: Round):
    """Each event with the round's state after it: for the step-by-step replay."""
    events = list(round_events(round_row))
    state = TableRound(events[0].payload["opening"])
    # A deep copy: to_dict() shares its lists (actions, corrections) with the live state,
    # and the next command would otherwise rewrite every earlier step after the fact.
    yield events[0], copy.deepcopy(state.to_dict())
    for event in events[1:]:
        state.apply(event.payload["command"])
        yield event, copy.deepcopy(state.to_dict())


def rounds_search(
    *,
    tables,
    table_id: int | None = None,
    opened_from=None,
    opened_to=None,
    min_total_bet=None,
    min_result=None,
    box: int | None = None,
    with_alert: bool = False,
):
    """Past and current rounds of ``tables`` (a queryset or list), newest first, filtered.

    ``min_result``: the round's result for either side at least this much (the players'
    net, won or lost). ``box``: a stake was on that box. ``with_alert``: an alert of the
    table was raised while the round was open (from its opening to its close, or now).
    """
    from django.db.models import Exists, OuterRef, Q
    from django.db.models.functions import Coalesce, Now

    from tables.models import Alert

    rows = Round.objects.filter(table__in=tables).select_related("table", "opened_by")
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    if opened_from is not None:
        rows = rows.filter(opened_at__gte=opened_from)
    if opened_to is not None:
        rows = rows.filter(opened_at__lte=opened_to)
    if min_total_bet is not None:
        rows = rows.filter(total_bet__gte=min_total_bet)
    if min_result is not None:
        rows = rows.filter(Q(players_net__gte=min_result) | Q(players_net__lte=-min_result))
    if box is not None:
        rows = rows.filter(snapshot__shares__has_key=str(box))
    if with_alert:
        alerts = Alert.objects.filter(
            table=OuterRef("table"),
            created_at__gte=OuterRef("opened_at"),
            created_at__lte=Coalesce(OuterRef("closed_at"), Now()),
        )
        rows = rows.filter(Exists(alerts))
    return rows.order_by("-opened_at", "-pk")
