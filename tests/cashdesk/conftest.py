"""Cash-desk fixtures: a staffed table with a chip set, helpers for counts and rounds."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

CHIPS = ["100", "500", "1000", "5000"]


@pytest.fixture
def cash_table(table, crew):
    table.chip_denominations = CHIPS
    table.save(update_fields=["chip_denominations"])
    return table


@pytest.fixture
def count_chips(crew):
    """Record a ChipCount (issue 5 records them at opening and closing)."""
    from tables.models import ChipCount

    def make(table, kind, total, at=None):
        return ChipCount.objects.create(
            table=table,
            kind=kind,
            counts={"1000": int(Decimal(total) // 1000)},
            total=Decimal(total),
            counted_by=crew["inspector"],
            counted_at=at or timezone.now(),
        )

    return make


@pytest.fixture
def closed_round(crew):
    """A closed game.Round with the given recorded result (one box per bet), and its result
    for the reports as the closing command records it (``round_result_record``)."""
    from cashdesk.services import round_result_record
    from game.configuration import house_edge
    from game.models import Round, Shoe

    counter = {"n": 0}

    def make(table, *, bets, players_net, at=None):
        counter["n"] += 1
        shoe = Shoe.objects.filter(table=table).first() or Shoe.objects.create(
            table=table,
            number=1,
            decks=6,
            reason=Shoe.Reason.NEW_SHOE,
            shuffled_by=crew["dealer"],
            cards_behind_cut=80,
        )
        seats = [{"box": i + 1, "bet": str(b)} for i, b in enumerate(bets)]
        row = Round.objects.create(
            table=table,
            shoe=shoe,
            number=counter["n"],
            status=Round.Status.CLOSED,
            snapshot={"engine": {"seats": seats}},
            version=counter["n"],
            opened_by=crew["dealer"],
            closed_at=at or timezone.now(),
            players_net=Decimal(players_net),
            total_bet=sum((Decimal(b) for b in bets), Decimal(0)),
        )
        round_result_record(
            round_id=row.pk,
            table_id=table.pk,
            closed_at=row.closed_at,
            hands=len(bets),
            total_bet=row.total_bet,
            players_net=row.players_net,
            theoretical_win=row.total_bet * house_edge(table.rules),
        )
        return row

    return make


def today():
    from cashdesk.gaming import gaming_day_of

    return gaming_day_of(timezone.now())


def yesterday():
    return today() - dt.timedelta(days=1)
