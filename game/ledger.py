"""What ``audit_verify`` re-derives from the game's chained records (floor/ledger.py): the
totals a round row carries (``game_round.total_bet``, ``players_net``) are the figures of its
recorded result (``cashdesk.RoundResult``, a chained record), every closed round has one,
and each recorded result is what a replay of the round's chained events settles."""

from decimal import Decimal

from django.utils.translation import gettext as _

from cashdesk.models import RoundResult
from floor.gaming import day_window
from floor.ledger import Broken, figure_check
from game.models import Round
from game.selectors import round_replay


@figure_check
def rounds_against_results(day):
    results = RoundResult.objects.select_related("round")
    if day is not None:
        results = results.filter(gaming_day=day)
    for result in results.iterator():
        played = result.round
        same = played.players_net == result.players_net and (
            result.voided or played.total_bet == result.total_bet
        )
        if not same:
            yield Broken(
                f"results:{result.table_id}:{result.gaming_day}",
                result.audit_seq or 0,
                f"game.round #{played.pk}",
                _("the round's totals differ from its recorded result"),
            )
    closed = Round.objects.filter(status=Round.Status.CLOSED, closed_at__isnull=False)
    if day is not None:
        start, end = day_window(day)
        closed = closed.filter(closed_at__gte=start, closed_at__lt=end)
    missing = closed.exclude(pk__in=RoundResult.objects.values("round_id"))
    for pk in missing.values_list("pk", flat=True)[:50]:
        yield Broken("—", 0, f"game.round #{pk}", _("a closed round without its recorded result"))


@figure_check(expensive=True)
def results_against_the_round_events(day):
    """Replay each recorded round from its chained events alone (the opening, then every
    command) and compare what the replay settles with the recorded result: a round's state
    (``game_round.snapshot``) is not chained, so a bet changed in it mid-round would settle
    into a result that agrees with the round's totals — not with the events."""
    results = RoundResult.objects.select_related("round")
    if day is not None:
        results = results.filter(gaming_day=day)
    for result in results.iterator():
        try:
            state = round_replay(result.round)
        except Exception:  # noqa: BLE001 - a log that no longer replays is itself the break
            reason = _("the round's events no longer replay")
            yield Broken(result.audit_chain, result.audit_seq or 0, _what(result), reason)
            continue
        # a voided round is recorded with no bet (no round played), only what stays paid
        expected = (Decimal(0) if result.voided else state.total_bet, state.players_net)
        if (result.total_bet, result.players_net) != expected:
            reason = _("the recorded result is not what the round's events settle")
            yield Broken(result.audit_chain, result.audit_seq or 0, _what(result), reason)


def _what(result) -> str:
    return f"cashdesk.roundresult #{result.pk} (game.round #{result.round_id})"
