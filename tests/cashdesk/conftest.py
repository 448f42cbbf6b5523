"""Cash-desk fixtures: a staffed table with a chip set, helpers for counts and rounds."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from cashdesk import days, services, slips

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
    """A closed game.Round with the given recorded result (one box per bet, from box 1;
    tests/factories.py), and its result for the reports as the closing command records it
    (``round_result_record``)."""
    from cashdesk.services import round_result_record
    from game.configuration.services import house_edge
    from tests.factories import ClosedRoundFactory

    def make(table, *, bets, players_net, at=None):
        row = ClosedRoundFactory(
            table=table,
            opened_by=crew["dealer"],
            bets={box: Decimal(bet) for box, bet in enumerate(bets, start=1)},
            players_net=Decimal(players_net),
            **({"closed_at": at} if at else {}),
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


def slip_signed(table, crew, kind, counts, *, void=False, complete=True):
    slip = slips.slip_request(
        table=table, actor=crew["inspector"], kind=kind, counts_by_denomination=counts
    )
    if complete:
        slips.slip_issue(slip=slip, actor=crew["duty"])
        slips.slip_receive(slip=slip, actor=crew["observer"])
    if void:
        slips.slip_void(slip=slip, actor=crew["inspector"], reason="entered twice")
        slips.slip_void(slip=slip, actor=crew["duty"])
    return slip


@pytest.fixture
def worked_day(cash_table, crew, count_chips, closed_round):
    """Opener 100 000; a fill of 20 000, a credit of 5 000, a fill of 10 000 voided;
    cash-ins 30 000 for chips; rounds: players lose 17 000 over 6 hands; closer 92 000;
    counted drop 30 000."""
    from django.utils import timezone

    start = timezone.now() - dt.timedelta(seconds=1)
    count_chips(cash_table, "opener", "100000", at=start)
    slip_signed(cash_table, crew, "fill", {"5000": 4})
    slip_signed(cash_table, crew, "credit", {"1000": 5})
    slip_signed(cash_table, crew, "fill", {"5000": 2}, void=True)
    services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"5000": 6}, chips={"5000": 6}
    )
    closed_round(cash_table, bets=["1000", "2000", "500"], players_net="-9000")
    closed_round(cash_table, bets=["1000", "1000", "500"], players_net="-8000")
    count_chips(cash_table, "closer", "102000")
    services.drop_enter(table=cash_table, gaming_day=today(), amount="30000", actor=crew["duty"])
    return cash_table


def once(post: dict) -> dict:
    """A money form's fields with its idempotency token, as the page sends them."""
    import uuid

    return {**post, "submission": uuid.uuid4().hex}


def signed_by(person, password=None) -> dict:
    """The second signature of a two-person act, as a service takes it: the request the
    password is checked through (throttled like a sign-in), and the person's name and
    password."""
    from django.test import RequestFactory

    from tests.conftest import PASSWORD

    return {
        "request": RequestFactory().post("/cash/duty/", REMOTE_ADDR="10.0.0.9"),
        "second": person.username,
        "second_password": PASSWORD if password is None else password,
    }


def resolve(kind, record, actor, second, note="checked"):
    """Resolve an exception with two signatures (``actor`` and ``second``)."""
    return days.exception_resolve(
        kind=kind, object_id=record.pk, actor=actor, note=note, **signed_by(second)
    )


def waive(gaming_day, actor, second, reason="the count team is absent"):
    """Close ``gaming_day`` over what is open, with a waiver signed by two people."""
    from tests.conftest import PASSWORD

    return days.gaming_day_close(
        gaming_day=gaming_day,
        actor=actor,
        waiver_reason=reason,
        password=PASSWORD,
        **signed_by(second),
    )


@pytest.fixture
def duty2(make_user):
    """A second duty administrator."""
    from staff.roles import Role

    return make_user("duty2", [Role.DUTY_ADMINISTRATOR])
