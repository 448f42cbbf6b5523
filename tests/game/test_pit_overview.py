"""The pit overview: every table's tile (dealer, round, result, open alerts), live, for the
pit boss and the duty administrator — the inspector's tile through the same pipeline."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from floor.alerts import alert_raise
from tests.game.test_table_socket import command, connect, next_live, version_of


def test_the_pit_boss_sees_every_table_with_its_dealer_and_alerts(client, crew, table, make_table):
    other = make_table(2)
    alert_raise(table_id=table.pk, kind="flag", params={"note": "box 2 paid twice"})
    client.force_login(crew["pitboss"])
    page = client.get(reverse("game:pit_overview"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'id="tile-{table.pk}"' in page and f'id="tile-{other.pk}"' in page
    assert crew["dealer"].display_name in page
    assert "box 2 paid twice" in page and "1 open alert" in page
    assert 'ws-connect="/ws/pit/"' in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["pitboss", "duty"])
async def test_the_overview_follows_every_table_live(english_crew, table, make_table, who):
    crew = english_crew
    other = await database_sync_to_async(make_table)(2)
    pit = await connect("/ws/pit/", crew[who])
    dealer = await connect(f"/ws/tables/{table.pk}/", crew["dealer"])
    try:
        first = {await pit.receive_from(timeout=5) for _ in range(2)}
        assert any(f'id="tile-{other.pk}"' in tile for tile in first)
        v0 = version_of(await next_live(dealer))
        await dealer.send_to(
            text_data=command("shuffle", v0, reason="new_shoe", cards_behind_cut=80)
        )
        await dealer.send_to(text_data=command("open-round", v0 + 1))
        tiles = [await pit.receive_from(timeout=5) for _ in range(2)]
        assert f'id="tile-{table.pk}"' in tiles[-1]
        assert "Place your bets" in tiles[-1] and 'data-testid="tile-round">1<' in tiles[-1]
    finally:
        await pit.disconnect()
        await dealer.disconnect()
