"""An alert's message shows its amounts as the reader reads numbers, not as stored."""

import pytest
from django.utils import translation

from floor.alerts import alert_text
from floor.models import Alert


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Player card PC-1: cash-ins today \u221295,000.00 (threshold 300,000.00)"),
        ("ru", "95\xa0000,00"),
    ],
)
def test_money_in_an_alert_message_is_in_the_readers_format(language, expected):
    alert = Alert(
        kind="cash_in_player_day",
        params={"card": "PC-1", "amount": "-95000.00", "threshold": 300000},
    )
    with translation.override(language):
        text = alert_text(alert)
    assert expected in text
    assert "-95000.00" not in text and "95000" not in text


def test_a_non_money_parameter_is_left_as_it_is():
    alert = Alert(kind="table_idle", params={"minutes": 12})
    with translation.override("en"):
        assert alert_text(alert) == "No command at the table for 12 minutes."
