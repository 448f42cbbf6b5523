"""What ``audit_verify`` re-derives from the game's chained records (floor/ledger.py): the
totals a round row carries (``game_round.total_bet``, ``players_net``) are the figures of its
recorded result (``cashdesk.RoundResult``, a chained record), and every closed round has one."""

from django.utils.translation import gettext as _

from cashdesk.models import RoundResult
from floor.gaming import day_window
from floor.ledger import Broken, figure_check
from game.models import Round


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
