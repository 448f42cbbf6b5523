"""A command refused ``stale`` is cheap: the sender gets the refusal only; the full state
follows after ``STALE_HEAL_SECONDS`` only when the fragment that made it stale never reached
the screen (docs/protocol.md)."""

import time

import pytest

from tests.game.test_screens_heal import seq_of
from tests.game.test_table_socket import command, connect, next_live, version_of
from tests.lossy import lose_sends

pytestmark = pytest.mark.django_db(transaction=True)
HEAL = 0.4


@pytest.fixture
def heal_delay(settings):
    settings.STALE_HEAL_SECONDS = HEAL


@pytest.fixture
def lossy(monkeypatch):
    """Lose the next table fragment on the way (a full channel, a network blip)."""
    return lose_sends(monkeypatch, "table")


async def messages_within(communicator, seconds) -> list[str]:
    out = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if await communicator.receive_nothing(timeout=min(left, 0.1)):
            continue
        out.append(await communicator.receive_from(timeout=1))
    return out


async def test_a_stale_tap_gets_the_refusal_and_only_the_fragment_already_on_its_way(
    heal_delay, english_crew, table
):
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        first = await next_live(dealer)
        v0 = version_of(first)
        await dealer.send_to(
            text_data=command("shuffle", v0, reason="new_shoe", cards_behind_cut=80)
        )
        await dealer.send_to(text_data=command("open-round", v0))  # the screen's old version
        replies = await messages_within(dealer, HEAL * 3)
        refusals = [r for r in replies if 'data-code="stale"' in r]
        states = [r for r in replies if 'id="table-live"' in r]
        assert len(refusals) == 1
        assert "changed the table a moment ago" in refusals[0]
        assert len(states) == 1  # the shuffle's fragment; no full state after the refusal
        assert version_of(states[0]) == v0 + 1
        assert seq_of(states[0]) > seq_of(first)
    finally:
        await dealer.disconnect()


async def test_a_stale_tap_whose_fragment_was_lost_gets_the_full_state_after_the_delay(
    heal_delay, lossy, english_crew, table
):
    path = f"/ws/tables/{table.pk}/"
    dealer = await connect(path, english_crew["dealer"])
    observer = await connect(path, english_crew["observer"])
    try:
        first = await next_live(dealer)
        v0 = version_of(first)
        await next_live(observer)
        lossy["count"] = 1  # the shuffle's fragment never arrives
        await dealer.send_to(
            text_data=command("shuffle", v0, reason="new_shoe", cards_behind_cut=80)
        )
        assert 'data-code=""' in await dealer.receive_from(timeout=5)  # accepted
        assert await dealer.receive_nothing(timeout=0.2)
        await dealer.send_to(text_data=command("open-round", v0))  # still shows v0
        refused_at = time.monotonic()
        assert 'data-code="stale"' in await dealer.receive_from(timeout=5)
        assert await dealer.receive_nothing(timeout=HEAL / 2)  # not at once
        healed = await dealer.receive_from(timeout=5)
        assert time.monotonic() - refused_at >= HEAL * 0.9
        assert version_of(healed) == v0 + 1
        assert seq_of(healed) > seq_of(first)
        assert await dealer.receive_nothing(timeout=HEAL * 2)  # healed once
        assert await observer.receive_nothing(timeout=0.1)  # only the refused screen
    finally:
        await dealer.disconnect()
        await observer.disconnect()
