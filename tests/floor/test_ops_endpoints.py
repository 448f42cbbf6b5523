"""``/healthz`` and ``/metrics``: for the intranet's machines only, honest about failures."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_healthz_answers_ok_when_the_database_and_the_live_feed_work(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok" and body["feed"] == "ok"


def test_healthz_says_which_part_failed(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "ok"
    assert response.json()["feed"].startswith("failed")


def test_metrics_count_commands_by_action_and_outcome(client, crew, table):
    from tests.game.conftest import Desk

    dealer_desk = Desk(table, crew["dealer"])
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    dealer_desk.send("open-round", expected_version=99)  # stale
    text = client.get("/metrics").content.decode()
    assert 'pit_commands_total{action="shuffle",outcome="ok"}' in text
    assert 'pit_commands_total{action="open-round",outcome="stale"}' in text
    assert "pit_stale_refusals_total" in text
    assert "pit_command_seconds_bucket" in text


@pytest.mark.parametrize("path", ["/healthz", "/metrics"])
@pytest.mark.parametrize("address", ["203.0.113.7", "8.8.8.8", "2001:db8::1", "not-an-ip"])
def test_visitors_from_outside_the_intranet_are_told_nothing(client, path, address):
    assert client.get(path, REMOTE_ADDR=address).status_code == 404
