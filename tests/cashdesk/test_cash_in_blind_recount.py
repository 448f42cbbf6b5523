"""Cash-in at the table: the dealer's entry, the observer's blind recount, the alerts."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cashdesk import services
from cashdesk.models import CashIn
from floor.models import Alert
from tests.cashdesk.conftest import once

NOTES = {"5000": 3, "1000": 2}  # 17 000
CHIPS = {"5000": 3, "1000": 2}


def _enter(table, crew, notes=NOTES, chips=CHIPS, **extra):
    return services.cash_in_record(
        table=table, actor=crew["dealer"], notes=notes, chips=chips, **extra
    )


def test_observer_does_not_see_the_dealers_figure_before_his_own(client, cash_table, crew):
    _enter(cash_table, crew)
    client.force_login(crew["observer"])
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert 'data-testid="recount-form"' in page
    for shown in ("17000", "17 000", "17\u00a0000", "17,000"):
        assert shown not in page


def test_matching_recount_confirms_the_cash_in(client, cash_table, crew):
    cash_in = _enter(cash_table, crew)
    client.force_login(crew["observer"])
    post = {"cash_in": cash_in.pk, "note-5000": "3", "note-1000": "2"}
    response = client.post(reverse("cashdesk:recount", args=[cash_table.pk]), once(post))
    assert response.status_code == 302
    cash_in.refresh_from_db()
    assert cash_in.status == CashIn.Status.CONFIRMED
    assert cash_in.recount_amount == Decimal("17000")
    assert cash_in.recounted_by == crew["observer"]
    assert not Alert.objects.filter(kind="recount_mismatch").exists()


def test_mismatched_recount_raises_an_alert(client, cash_table, crew):
    cash_in = _enter(cash_table, crew)
    client.force_login(crew["observer"])
    post = {"cash_in": cash_in.pk, "note-5000": "3", "note-1000": "1"}
    client.post(reverse("cashdesk:recount", args=[cash_table.pk]), once(post))
    cash_in.refresh_from_db()
    assert cash_in.status == CashIn.Status.MISMATCH
    alert = Alert.objects.get(kind="recount_mismatch")
    assert alert.table == cash_table
    assert alert.params == {"entered": "17000.00", "recounted": "16000.00", "cash_in": cash_in.pk}
    assert alert.severity == Alert.Severity.CRITICAL


def test_a_recount_cannot_be_signed_twice(cash_table, crew):
    cash_in = _enter(cash_table, crew)
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes=NOTES)
    with pytest.raises(ValidationError):
        services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"5000": 1})
    cash_in.refresh_from_db()
    assert cash_in.recount_amount == Decimal("17000")


def test_the_dealer_cannot_recount(cash_table, crew):
    cash_in = _enter(cash_table, crew)
    with pytest.raises(ValidationError):
        services.cash_in_recount(cash_in=cash_in, actor=crew["dealer"], notes=NOTES)


def test_a_large_cash_in_alerts(cash_table, crew, settings):
    settings.CASH_IN_ALERT_AMOUNT = 15000
    _enter(cash_table, crew)
    assert Alert.objects.filter(kind="cash_in_large", table=cash_table).count() == 1


def test_a_player_cards_day_total_alerts_once_when_it_crosses_the_threshold(
    cash_table, crew, settings
):
    settings.CASH_IN_PLAYER_DAY_ALERT_AMOUNT = 30000
    for _ in range(3):
        _enter(cash_table, crew, player_card="PC-77")
    alerts = Alert.objects.filter(kind="cash_in_player_day")
    assert alerts.count() == 1
    assert alerts.get().params["amount"] == "34000.00"


@pytest.mark.parametrize(
    "post",
    [
        {"note-1000": "-2", "chip-1000": "-2"},
        {"note-1000": "two", "chip-1000": "2"},
        {"note-1000": "2", "chip-25": "80"},  # 25 is not in this table's chip set
        {"note-1000": "2", "chip-1000": "3"},  # chips differ from the cash
        {"note-3000": "1", "chip-1000": "3"},  # no such banknote
        {},
    ],
)
def test_bad_cash_in_is_refused_and_nothing_saved(client, cash_table, crew, post):
    client.force_login(crew["dealer"])
    response = client.post(reverse("cashdesk:cash_in", args=[cash_table.pk]), post)
    assert response.status_code == 400
    assert 'data-testid="error"' in response.content.decode()
    assert not CashIn.objects.exists()


@pytest.mark.parametrize("amount", ["-5", "abc", "0", "1.005", "NaN", ""])
def test_bad_tip_is_refused(client, cash_table, crew, amount):
    client.force_login(crew["dealer"])
    response = client.post(
        reverse("cashdesk:tip", args=[cash_table.pk]), {"box": "3", "amount": amount}
    )
    assert response.status_code == 400
    from cashdesk.models import Tip

    assert not Tip.objects.exists()


def test_tip_is_recorded_with_box_and_time_and_is_never_win(client, cash_table, crew):
    client.force_login(crew["dealer"])
    response = client.post(
        reverse("cashdesk:tip", args=[cash_table.pk]),
        once({"box": "3", "amount": "250", "note": "a regular"}),
    )
    assert response.status_code == 302
    from cashdesk.models import Tip
    from cashdesk.selectors import cash_report
    from tests.cashdesk.conftest import today

    tip = Tip.objects.get()
    assert (tip.box, tip.amount, tip.recorded_by) == (3, Decimal("250"), crew["dealer"])
    report = cash_report(first=today(), last=today())
    assert report["total"].tips == Decimal("250")
    assert report["total"].win is None and report["total"].game_win == 0


def test_the_inspectors_register_shows_both_figures(client, cash_table, crew):
    cash_in = _enter(cash_table, crew)
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"5000": 3})
    client.force_login(crew["inspector"])
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    register = page.split('data-testid="register"')[1]
    # one number format (Russian: a no-break space between thousands, a decimal comma)
    assert "17\u00a0000,00" in register and "15\u00a0000,00 (Observer)" in register
    assert "5\u00a0000 × 3, 1\u00a0000 × 2" in register  # the notes, not a Python dict
    assert "{" not in register
