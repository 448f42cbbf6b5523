"""Win = closer − opener + drop + credits − fills; hold = win / drop; theoretical win."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from cashdesk import corrections, services
from cashdesk.selectors import cash_report, expected_tray
from game.configuration.services import house_edge
from tests.cashdesk.conftest import signed_by, today


def test_win_and_hold_on_a_worked_example(worked_day):
    line = cash_report(first=today(), last=today())["lines"][0]
    # 102 000 − 100 000 + 30 000 + 5 000 − 20 000 (the voided fill does not count)
    assert line.fills == Decimal("20000") and line.credits == Decimal("5000")
    assert line.win == Decimal("17000")
    assert line.hold == Decimal("56.67")
    assert line.drop_difference == 0
    # the win reconciles with the settled rounds when all cash went into the cash box
    assert line.game_win == line.win


def test_rounds_hands_average_bet_and_theoretical_win(worked_day):
    line = cash_report(first=today(), last=today())["lines"][0]
    assert (line.rounds, line.hands) == (2, 6)
    assert line.average_bet == Decimal("1000.00")
    edge = house_edge(worked_day.rules)
    assert line.theoretical == (Decimal("6000") * edge).quantize(Decimal("0.01"))
    assert line.theoretical > 0
    assert line.hands_per_hour == Decimal("6.0")


def test_expected_tray_reconciles_with_the_closer(worked_day):
    from tables.models import ChipCount

    opener = ChipCount.objects.get(kind="opener")
    closer = ChipCount.objects.get(kind="closer")
    # 100 000 + 20 000 − 5 000 − 30 000 sold + 17 000 lost by the players
    assert expected_tray(table=worked_day, at=closer.counted_at, since=opener) == Decimal("102000")


def test_without_a_counted_drop_there_is_no_win_and_the_report_says_so(
    cash_table, crew, count_chips
):
    count_chips(cash_table, "opener", "100000")
    count_chips(cash_table, "closer", "100000")
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.win is None and line.hold is None


def test_a_drop_correction_is_a_new_record_pointing_at_the_old(worked_day, crew):
    from cashdesk.models import DropCount

    with pytest.raises(ValidationError):
        services.drop_enter(
            table=worked_day, gaming_day=today(), amount="29000", actor=crew["duty"]
        )
    services.drop_enter(
        table=worked_day,
        gaming_day=today(),
        amount="29000",
        actor=crew["duty"],
        note="recount of the box",
    )
    old, new = DropCount.objects.order_by("pk")
    assert new.replaces == old and old.amount == Decimal("30000")
    # it counts once a second person confirms it (tests/cashdesk/test_drop_correction_two_people.py)
    corrections.drop_correction_confirm(
        drop=new, actor=crew["duty"], **signed_by(crew["inspector"])
    )
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.drop == Decimal("29000") and line.drop_difference == Decimal("-1000")
    assert line.win == Decimal("16000")


def test_pit_and_day_groupings_add_up(worked_day):
    by_pit = cash_report(first=today(), last=today(), group="pit")
    by_day = cash_report(first=today(), last=today(), group="day")
    assert by_pit["lines"][0].win == by_day["lines"][0].win == Decimal("17000")


def test_a_line_with_a_table_day_of_unknown_win_shows_no_win_and_no_hold():
    from decimal import Decimal

    from cashdesk.selectors import Figures

    complete = Figures(
        opener=Decimal(1000), closer=Decimal(1000), drop=Decimal(500), win=Decimal(500)
    )
    no_closer = Figures(opener=Decimal(1000), drop=Decimal(500))  # closer not counted yet
    line = Figures(label="pit")
    line.add(complete)
    assert line.win == Decimal(500) and line.hold == Decimal("100.00")
    line.add(no_closer)
    assert line.drop == Decimal(1000)
    assert line.win is None and line.hold is None  # not 500 against a drop of 1000
