"""The inspector's dashboard: their tables only, the shift's figures, and a table that
needs attention standing out."""

import pytest
from django.urls import reverse

from floor.alerts import alert_raise
from staff import services as staff_services
from staff.roles import Role, TableRole


@pytest.fixture
def dashboard(client, crew):
    def get():
        client.force_login(crew["inspector"])
        response = client.get(reverse("game:inspector_home"), HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
        return response.content.decode()

    return get


def test_the_inspector_sees_only_their_own_tables(dashboard, table, make_table, make_user):
    other = make_table(2)
    someone = make_user("inspector2", [Role.INSPECTOR])
    staff_services.assignment_start(table=other, user=someone, role=TableRole.INSPECTOR)
    page = dashboard()
    assert f'id="tile-{table.pk}"' in page
    assert f'id="tile-{other.pk}"' not in page


def test_the_tile_shows_the_shift_and_the_staff_since_when(dashboard, dealer_desk, table, crew):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "6d", "9c", "8h")  # box 1 busts: the round is settled
    dealer_desk.ok("confirm-settlement")
    page = dashboard()
    assert 'data-testid="tile-shift-result"' in page
    assert "(1 round)" in page
    assert crew["dealer"].display_name in page and "data-since=" in page
    assert 'data-testid="tile-cash-ins"' in page and 'data-testid="tile-tips"' in page
    assert 'data-attention="0"' in page


def test_an_open_warning_makes_the_table_stand_out_until_acknowledged(dashboard, table, crew):
    from tables.services import alert_acknowledge

    alert = alert_raise(table_id=table.pk, kind="flag", params={"note": "check box 2"})
    page = dashboard()
    assert 'data-attention="1"' in page and "check box 2" in page
    assert "1 open alert" in page
    alert_acknowledge(alert_id=alert.pk, by=crew["inspector"], note="seen")
    page = dashboard()
    assert 'data-attention="0"' in page and "check box 2" not in page


def test_a_critical_alert_marks_the_tile_critical(dashboard, table):
    alert_raise(
        table_id=table.pk,
        kind="round_voided",
        params={"round": 1, "reason": "x"},
        severity="critical",
    )
    assert "attention critical" in dashboard()
