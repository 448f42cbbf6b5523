"""Every screen heals from the database: a fragment lost on the way, a worker killed
between the commit and the publish, a group membership the channel layer forgot — the
screen's next ``sync`` (every 20 s, or at once after a gap) brings it back, on every screen
kind (docs/protocol.md)."""

import asyncio
import re

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from cashdesk import services as cash
from floor import changes
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
    return lose_sends(monkeypatch, "game.publish", "cashdesk.publish")


@pytest.fixture
def killed(monkeypatch):
    """The worker dies between the commit and the publish: nothing is ever sent."""
    monkeypatch.setattr(changes, "_subscribers", [])


SCREENS = {
    # screen kind: (path, person, how it asks, what it shows of the note)
    "table": lambda t: f"/ws/tables/{t.pk}/",
    "inspector": lambda t: "/ws/inspector/",
    "duty": lambda t: "/ws/duty/",
}
PEOPLE = {"table": "observer", "inspector": "inspector", "duty": "duty"}


def sync_message(kind, table, shown) -> dict:
    if kind == "inspector":
        return {"action": "sync", "known": {str(table.pk): seq_of(shown)}}
    return {"action": "sync", "known_seq": seq_of(shown)}


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
        await screen.send_json_to({"action": "sync", "known_seq": seq_of(shown)})
        assert await screen.receive_nothing(timeout=0.3)
    finally:
        await screen.disconnect()


@pytest.fixture
def short_group_expiry(settings):
    """The channel layer forgets a group membership after one second (channels-redis's
    default is a day: a screen open longer would stop receiving)."""
    layer = dict(settings.CHANNEL_LAYERS["default"])
    layer["CONFIG"] = {**layer.get("CONFIG", {}), "group_expiry": 1}
    settings.CHANNEL_LAYERS = {"default": layer}


@pytest.mark.parametrize("kind", sorted(SCREENS))
async def test_a_screen_keeps_receiving_after_its_group_membership_expired(
    short_group_expiry,
    english_crew,
    table,
    kind,
):
    screen = await connect(SCREENS[kind](table), english_crew[PEOPLE[kind]])
    try:
        shown = await first_message(screen)
        await asyncio.sleep(1.5)  # the membership has expired
        await screen.send_json_to(sync_message(kind, table, shown))  # every 20 s: re-joins
        assert await screen.receive_nothing(timeout=0.3) or kind == "duty"
        await screen.receive_nothing(timeout=0.1)
        await note(table, "After the expiry")
        pushed = await screen.receive_from(timeout=5)
        while "After the expiry" not in pushed:  # the duty screen's sync answer came first
            pushed = await screen.receive_from(timeout=5)
        assert seq_of(pushed) > seq_of(shown)
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


def test_settings_keep_group_memberships_refreshed_by_sync():
    """The screens' sync interval is well inside the layer's group expiry."""
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    assert config.get("group_expiry", 86400) > 20
