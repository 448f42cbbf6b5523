"""Model factories (factory-boy) for rows a test needs as history rather than as something it
plays: a shoe, a closed round with its result. A round that a test plays goes through the
tablet instead (``tests/desk.py``: ``dealer_desk.start_round(...)``).

    ClosedRoundFactory(table=t, opened_by=dealer, bets={1: 100, 2: 50}, players_net=-150)

A closed round's ``snapshot`` here holds only what the readers of closed rounds use
(``game.detection.records``: ``opening.shoe``, ``engine.bets``, ``shares``), in the shape
``game.table.live.TableRound.to_dict`` writes it; nothing reads the rest of a closed round's
state."""

from decimal import Decimal

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from game.models import Round, Shoe


def _next_number(model, table) -> int:
    """The next number of a shoe or a round at ``table`` (both are numbered per table)."""
    last = model.objects.filter(table=table).order_by("-number").first()
    return last.number + 1 if last else 1


def round_snapshot(bets: dict, *, decks=6, out_ranks=None, shares=None) -> dict:
    """The parts of ``TableRound.to_dict`` a closed round's readers use. ``bets``: box -> bet;
    ``shares``: box -> [(seat, stake, player_card)], by default one share per box, the bet
    of a seat named after its box."""
    if shares is None:
        shares = {box: [(f"P{box}", bet, "")] for box, bet in bets.items()}
    return {
        "opening": {"shoe": {"decks": decks, "out_ranks": dict(out_ranks or {})}},
        "engine": {"bets": {str(box): str(Decimal(bet)) for box, bet in bets.items()}},
        "shares": {
            str(box): [
                {"seat": seat, "stake": str(Decimal(stake)), "player_card": card}
                for seat, stake, card in box_shares
            ]
            for box, box_shares in shares.items()
        },
    }


class ShoeFactory(DjangoModelFactory):
    """A shoe shuffled at ``table`` by ``shuffled_by`` (both required)."""

    class Meta:
        model = Shoe

    number = factory.LazyAttribute(lambda o: _next_number(Shoe, o.table))
    decks = 6
    state = factory.LazyFunction(dict)
    reason = Shoe.Reason.NEW_SHOE
    cards_behind_cut = 80


class ClosedRoundFactory(DjangoModelFactory):
    """A closed round at ``table`` opened by ``opened_by`` (both required): ``bets`` (box ->
    bet) make its total bet and snapshot, ``players_net`` its result. Its shoe is the table's
    latest, or a new one."""

    class Meta:
        model = Round

    class Params:
        bets = factory.LazyFunction(lambda: {1: Decimal(100)})
        out_ranks = None
        shares = None

    shoe = factory.LazyAttribute(
        lambda o: (
            Shoe.objects.filter(table=o.table).order_by("-number").first()
            or ShoeFactory(table=o.table, shuffled_by=o.opened_by)
        )
    )
    number = factory.LazyAttribute(lambda o: _next_number(Round, o.table))
    status = Round.Status.CLOSED
    snapshot = factory.LazyAttribute(
        lambda o: round_snapshot(o.bets, out_ranks=o.out_ranks, shares=o.shares)
    )
    version = factory.SelfAttribute("number")
    closed_at = factory.LazyFunction(timezone.now)
    players_net = Decimal(0)
    total_bet = factory.LazyAttribute(
        lambda o: sum((Decimal(b) for b in o.bets.values()), Decimal(0))
    )
