"""The duty screen gets per-table deltas, not the floor: a change pushes the changed tables'
rows and the small floor-wide parts; the full state comes on connect and when the screen is
too far behind; a delta ahead of a missing one waits for it, and after a gap that never
fills the screen gets the full state (docs/protocol.md)."""

import re

import pytest
from channels.db import database_sync_to_async

from cashdesk import services
from feed import bus, consumers
from feed.bus import Message
from floor.changes import duty_changed
from tests.conftest import ws_communicator

pytestmark = pytest.mark.django_db(transaction=True)
FLOOR = 40  # tables on the floor besides the crew's
ROW = re.compile(r'<tr id="duty-row-\d+" data-table="(\d+)"')
SEQ = re.compile(r'<span id="duty-feed" data-topic="duty" data-seq="(\d+)"')


def seq_of(html: str) -> int:
    return int(SEQ.search(html).group(1))


@pytest.fixture
def floor(cash_table, make_table):
    for number in range(2, FLOOR + 2):
        make_table(number)
    return cash_table


async def duty_screen(person):
    person.preferred_language = "en"
    await database_sync_to_async(person.save)()
    communicator = await database_sync_to_async(ws_communicator)("/ws/duty/", person)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_a_cash_in_pushes_its_table_row_not_the_floor(floor, crew):
    screen = await duty_screen(crew["duty"])
    try:
        full = await screen.receive_from(timeout=5)
        assert "data-delta" not in full
        assert len(ROW.findall(full)) == FLOOR + 1
        await database_sync_to_async(services.cash_in_record)(
            table=floor, actor=crew["dealer"], notes={"5000": 2}, chips={"5000": 2}
        )
        delta = await screen.receive_from(timeout=5)
        assert 'data-delta="true"' in delta
        assert seq_of(delta) == seq_of(full) + 1
        assert ROW.findall(delta) == [str(floor.number)]
        assert 'data-testid="table-total">10,000.00<' in delta
        # the floor-wide parts, each replacing its element
        for part in ("duty-alerts", "duty-replacements", "duty-slips", "duty-exceptions"):
            assert f'id="{part}"' in delta
        assert delta.count('hx-swap-oob="morph"') == 4
        assert 'hx-swap-oob="upsert:#duty-rows"' in delta  # the rows, each into its namesake
        assert "Awaiting the recount" in delta  # the new exception
        size, floor_size = len(delta.encode()), len(full.encode())
        assert size < 4000, size  # a few KB, whatever the floor's size
        assert floor_size > 3 * size, (floor_size, size)
        assert await screen.receive_nothing(timeout=0.3)
    finally:
        await screen.disconnect()


async def test_a_change_of_no_table_pushes_only_the_floor_wide_parts(floor, crew):
    screen = await duty_screen(crew["duty"])
    try:
        full = await screen.receive_from(timeout=5)
        await database_sync_to_async(duty_changed)()
        delta = await screen.receive_from(timeout=5)
        assert 'data-delta="true"' in delta
        assert seq_of(delta) == seq_of(full) + 1
        assert ROW.findall(delta) == []
        assert 'id="duty-exceptions"' in delta
    finally:
        await screen.disconnect()


async def test_a_current_screen_asking_gets_nothing_and_one_showing_nothing_the_floor(floor, crew):
    screen = await duty_screen(crew["duty"])
    try:
        full = await screen.receive_from(timeout=5)
        await screen.send_json_to({"action": "sync", "known": {"duty": seq_of(full)}})
        assert await screen.receive_nothing(timeout=0.3)
        await screen.send_json_to({"action": "sync", "known": {"duty": -1}})
        again = await screen.receive_from(timeout=5)
        assert "data-delta" not in again
        assert len(ROW.findall(again)) == FLOOR + 1
    finally:
        await screen.disconnect()


async def test_a_screen_a_few_deltas_behind_gets_them_again_not_the_floor(floor, crew):
    screen = await duty_screen(crew["duty"])
    try:
        shown = seq_of(await screen.receive_from(timeout=5))
        for _ in range(2):
            await database_sync_to_async(duty_changed)()
            assert seq_of(await screen.receive_from(timeout=5)) > shown
        await screen.send_json_to({"action": "sync", "known": {"duty": shown}})
        again = [await screen.receive_from(timeout=5) for _ in range(2)]
        assert [seq_of(d) for d in again] == [shown + 1, shown + 2]
        assert all('data-delta="true"' in d for d in again)  # from the feed's memory
        assert await screen.receive_nothing(timeout=0.3)
    finally:
        await screen.disconnect()


def fragment(seq: int) -> Message:
    html = f'<span id="duty-feed" data-topic="duty" data-seq="{seq}" data-delta="true"></span>'
    return Message(topic="duty", seq=seq, fragments={"duty:en": html}, delta=True)


async def test_deltas_published_out_of_order_reach_the_screen_in_order(floor, crew):
    screen = await duty_screen(crew["duty"])
    try:
        shown = seq_of(await screen.receive_from(timeout=5))
        bus.deliver_here([fragment(shown + 2)])  # the later worker first
        assert await screen.receive_nothing(timeout=0.1)  # waits for the missing one
        bus.deliver_here([fragment(shown + 1)])
        assert seq_of(await screen.receive_from(timeout=1)) == shown + 1
        assert seq_of(await screen.receive_from(timeout=1)) == shown + 2
        bus.deliver_here([fragment(shown + 1)])  # overtaken: dropped
        assert await screen.receive_nothing(timeout=0.2)
    finally:
        await screen.disconnect()


async def test_a_gap_that_never_fills_brings_the_full_state_after_the_wait(floor, crew):
    screen = await duty_screen(crew["duty"])
    try:
        shown = seq_of(await screen.receive_from(timeout=5))
        bus.deliver_here([fragment(shown + 2)])  # shown + 1 was lost
        assert await screen.receive_nothing(timeout=consumers.REORDER_SECONDS / 2)
        healed = await screen.receive_from(timeout=2)
        assert "data-delta" not in healed and len(ROW.findall(healed)) == FLOOR + 1
    finally:
        await screen.disconnect()
