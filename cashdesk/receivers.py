"""The cash desk listens: it keeps its own rows of what happened at the tables."""

from django.dispatch import receiver

from cashdesk.services import round_result_record
from floor.signals import round_closed


@receiver(round_closed, dispatch_uid="cashdesk-round-result")
def round_result_on_close(
    sender,
    *,
    round_id,
    table_id,
    closed_at,
    hands,
    total_bet,
    players_net,
    theoretical_win,
    winning_boxes,
    voided,
    **_kwargs,
):
    """A round closed (floor.signals.round_closed): its figures for the reports, in the
    transaction that closed it."""
    round_result_record(
        round_id=round_id,
        table_id=table_id,
        closed_at=closed_at,
        hands=hands,
        total_bet=total_bet,
        players_net=players_net,
        theoretical_win=theoretical_win,
        winning_boxes=winning_boxes,
        voided=voided,
    )
