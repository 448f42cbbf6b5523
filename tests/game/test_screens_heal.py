"""Every screen heals from the database: a message lost on the way, a worker killed
between the commit and the publish, the bus reconnecting after an outage — the screen's
next ``sync`` (every 20 s, or at once after a gap) brings it back, on every screen kind
(docs/protocol.md)."""

import re

import pytest
from channels.db import database_sync_to_async

from cashdesk import services as cash
from feed import hub as hubs
from feed import send
from tests.game.conftest import Desk
from tests.game.test_table_socket import connect, next_live
from tests.lossy import lose_sends

pytestmark = pytest.mark.django_db(transaction=True)
SEQ = re.compile(r'data-seq="(\d+)"')


def seq_of(html: str) -> int:
    return int(SEQ.search(html).group(1))


async def first_message(communicator) -> str:
    return await communicator.receive_from(timeout=5)


async def note(table, text):
    """Something every screen shows: the observer's note (the table's screens list it; the
    inspector's tile and the duty screen show the alert it raises)."""
    from game.models import ErrorFlag
    from staff.models import TableAssignment

    def flag():
        observer = TableAssignment.objects.get(table=table, role="observing_croupier").user
        assert Desk(table, observer).send("flag", note=text).ok
        assert ErrorFlag.objects.filter(note=text).exists()

    await database_sync_to_async(flag)()


@pytest.fixture
def lossy(monkeypatch):
    """Lose the next fragment(s) on the way, as a full channel or a network blip would."""
    return lose_sends(monkeypatch, "table", "duty")


@pytest.fixture
def killed(monkeypatch):
    """The worker dies between the commit and the publish: nothing is ever sent."""
    monkeypatch.setattr(send, "deliver", lambda topics, controls: None)


SCREENS = {
    # screen kind: (path, person, how it asks, what it shows of the note)
    "table": lambda t: f"/ws/tables/{t.pk}/",
    "inspector": lambda t: "/ws/inspector/",
    "duty": lambda t: "/ws/duty/",
}
PEOPLE = {"table": "observer", "inspector": "inspector", "duty": "duty"}


TOPICS = {"table": lambda t: f"table.{t.pk}", "inspector": lambda t: f"table.{t.pk}"}


def sync_message(kind, table, shown) -> dict:
    topic = TOPICS.get(kind, lambda t: "duty")(table)
    return {"action": "sync", "known": {topic: seq_of(shown)}}


@pytest.mark.parametrize("kind", sorted(SCREENS))
@pytest.mark.parametrize("fault", ["lossy", "killed"])
async def test_a_screen_that_missed_a_change_heals_at_its_next_sync(
    english_crew,
    table,
    kind,
    fault,
    request,
):
    request.getfixturevalue(fault)
    if fault == "lossy":
        request.getfixturevalue("lossy")["count"] = 10
    screen = await connect(SCREENS[kind](table), english_crew[PEOPLE[kind]])
    try:
        shown = await first_message(screen)
        await note(table, "Box 4 paid twice")
        assert await screen.receive_nothing(timeout=0.3)  # the fragment never came
        await screen.send_json_to(sync_message(kind, table, shown))
        healed = await screen.receive_from(timeout=5)
        assert "Box 4 paid twice" in healed
        assert seq_of(healed) >= seq_of(shown)
    finally:
        await screen.disconnect()


async def test_a_current_screen_asking_gets_nothing(english_crew, table):
    screen = await connect(f"/ws/tables/{table.pk}/", english_crew["observer"])
    try:
        shown = await next_live(screen)
        await screen.send_json_to(sync_message("table", table, shown))
        assert await screen.receive_nothing(timeout=0.3)
    finally:
        await screen.disconnect()


@pytest.fixture
def restartable_redis(settings):
    """The feed on a private redis-server (channels-redis' RedisPubSubChannelLayer), which
    the test may kill and start again."""
    from channels.layers import channel_layers

    from casino.settings import channel_layers as layer_settings
    from tests.browser.outage import PrivateRedis

    server = PrivateRedis()
    settings.REDIS_URL = server.url
    settings.FEED_PREFIX = "heal-restart"
    settings.CHANNEL_LAYERS = layer_settings(server.url, "heal-restart")
    yield server
    server.stop()
    channel_layers.backends.clear()


@pytest.mark.parametrize("kind", sorted(SCREENS))
async def test_a_screen_checks_with_the_database_when_redis_comes_back(
    english_crew, table, kind, lossy, restartable_redis
):
    """What Redis lost while it was away (another worker's message, here: dropped on the
    way): the layer reconnects silently; the hub notices (its pings, the layer's error) and
    every screen compares what it was sent with the database — nobody calls it by hand."""
    screen = await connect(SCREENS[kind](table), english_crew[PEOPLE[kind]])
    try:
        await first_message(screen)
        await hubs.current().listener.ready.wait()
        restartable_redis.stop()
        lossy["count"] = 10
        await note(table, "While Redis was away")
        assert await screen.receive_nothing(timeout=0.3)
        restartable_redis.start()
        healed = await screen.receive_from(timeout=8)
        assert "While Redis was away" in healed
    finally:
        await screen.disconnect()


async def test_a_cash_in_reaches_the_tile_and_the_duty_screen_once_each(english_crew, table):
    table.chip_denominations = ["100"]
    await database_sync_to_async(table.save)()
    tile = await connect("/ws/inspector/", english_crew["inspector"])
    duty = await connect("/ws/duty/", english_crew["duty"])
    try:
        await first_message(tile)
        await first_message(duty)
        await database_sync_to_async(cash.cash_in_record)(
            table=table, actor=english_crew["dealer"], notes={"100": 5}, chips={"100": 5}
        )
        assert "500" in await tile.receive_from(timeout=5)
        assert 'data-testid="table-total">500' in await duty.receive_from(timeout=5)
        assert await tile.receive_nothing(timeout=0.3)
        assert await duty.receive_nothing(timeout=0.3)
    finally:
        await tile.disconnect()
        await duty.disconnect()
