"""The duty administrator's live cash-in totals arrive over the socket after a cash-in."""

import pytest
from channels.db import database_sync_to_async

from cashdesk import services
from floor.alerts import alert_raise
from tests.conftest import ws_communicator


@pytest.mark.django_db(transaction=True)
async def test_duty_screen_receives_the_new_total_after_a_cash_in(cash_table, crew):
    communicator = await database_sync_to_async(ws_communicator)("/ws/duty/", crew["duty"])
    connected, _ = await communicator.connect()
    try:
        assert connected
        first = await communicator.receive_from(timeout=3)
        assert 'data-testid="live-totals"' in first
        await database_sync_to_async(services.cash_in_record)(
            table=cash_table, actor=crew["dealer"], notes={"5000": 2}, chips={"5000": 2}
        )
        pushed = await communicator.receive_from(timeout=3)
        # the duty administrator's language (Russian here): thousands by a no-break space
        assert 'data-testid="table-total">10\u00a0000,00<' in pushed
    finally:
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_duty_screen_shows_a_new_alert_live_and_drops_it_when_acknowledged(cash_table, crew):
    from tables import services as table_services

    crew["duty"].preferred_language = "en"
    await database_sync_to_async(crew["duty"].save)()
    communicator = await database_sync_to_async(ws_communicator)("/ws/duty/", crew["duty"])
    connected, _ = await communicator.connect()
    try:
        assert connected
        first = await communicator.receive_from(timeout=3)
        assert 'data-testid="duty-no-alerts"' in first

        def raise_alert():
            return alert_raise(
                table_id=cash_table.pk, kind="flag", params={"note": "Box 2 overpaid"}
            )

        alert = await database_sync_to_async(raise_alert)()
        pushed = await communicator.receive_from(timeout=3)
        assert "Box 2 overpaid" in pushed
        await database_sync_to_async(table_services.alert_acknowledge)(
            alert_id=alert.pk, by=crew["inspector"], note="Checked with the dealer"
        )
        cleared = await communicator.receive_from(timeout=3)
        assert "Box 2 overpaid" not in cleared
        assert 'data-testid="duty-no-alerts"' in cleared
    finally:
        await communicator.disconnect()
