"""Issue 19 item 8 over the socket: every amount and label a tablet sends goes through the
one bounded parser (floor.parsing) before anything is computed. Each bad one is refused on
an open socket with a clear message, changes nothing (the round version, the events, the
money records), and the same socket then takes a good command (docs/protocol.md, "Amounts
and labels")."""

import json
import re
import uuid
from decimal import Decimal
from html import unescape

import pytest
from channels.db import database_sync_to_async

from cashdesk.models import CashIn, RoundResult, Tip
from game.models import Command, LiveTable, RoundEvent
from tests.game.test_table_socket import connect, next_live

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("english")]

CHIPS = ["5", "25", "100", "500"]  # a stake is split into these before it is accepted

# (what the stake field carries, the refusal's code, words of its message)
STAKES = [
    ("1000000000000", "amount_too_large", "That amount is too large."),
    ("1e14", "not_an_amount", "“1e14” is not an amount"),
    ("1e9999", "not_an_amount", "“1e9999” is not an amount"),
    ("1e30", "not_an_amount", "“1e30” is not an amount"),
    ("１００", "not_an_amount", "“１００” is not an amount"),
    ("١٠٠", "not_an_amount", "is not an amount"),
    ("1_00", "not_an_amount", "“1_00” is not an amount"),
    ("1e3", "not_an_amount", "“1e3” is not an amount"),
    ("+100", "not_an_amount", "“+100” is not an amount"),
    ("-5", "amount_negative", "An amount cannot be negative."),
    ("NaN", "not_an_amount", "“NaN” is not an amount"),
    ("Infinity", "not_an_amount", "“Infinity” is not an amount"),
    ("0x10", "not_an_amount", "“0x10” is not an amount"),
    ("9" * 400, "amount_too_large", "That amount is too large."),
    ("9" * 1000, "amount_too_large", "That amount is too large."),  # beyond a kept field
    ("100.001", "amount_decimals", "At most two decimal places."),
    ("1,500", "not_an_amount", "“1,500” is not an amount"),
    ("", "amount_required", "Enter an amount."),
    ("   ", "amount_required", "Enter an amount."),
    (None, "amount_required", "Enter an amount."),
    (1e308, "not_an_amount", "is not an amount"),  # a JSON number: a float
    (True, "not_an_amount", "is not an amount"),
    ([100], "not_an_amount", "is not an amount"),
    ({"amount": 100}, "not_an_amount", "is not an amount"),
    (10**40, "amount_too_large", "That amount is too large."),
    ("0", "amount_zero", "The amount must be greater than zero."),
    ("600", "bet_over_maximum", "is over the table maximum 500.00"),
    ("1 000 000", "bet_over_maximum", "is over the table maximum 500.00"),
    ("12", "stake_not_in_chips", "cannot be made of this table's chips"),
]

SEATS = [
    ("\u202eP1", "seat_characters", "A seat label is letters, digits, spaces and “-”"),
    ("x" * 25, "seat_too_long", "A seat label is at most 24 characters"),
    ("x" * 41, "seat_too_long", "A seat label is at most 24 characters"),
    ("P\x001", "seat_characters", "A seat label is letters"),
    ("P\n1", "seat_characters", "A seat label is letters"),
    ("P\x1b[2J", "seat_characters", "A seat label is letters"),
    ("P\u200b1", "seat_characters", "A seat label is letters"),  # a zero-width space
    ("   ", "seat_required", "Name the player's seat"),
    ("", "seat_required", "Name the player's seat"),
    (None, "seat_required", "Name the player's seat"),
    (7, "seat_characters", "A seat label is letters"),
    (["P1"], "seat_characters", "A seat label is letters"),
]

ERROR = re.compile(r'<div id="table-error"[^>]*data-code="([^"]*)"[^>]*>([^<]*)</div>')


def command(action, version, **fields) -> str:
    return json.dumps(
        {"id": str(uuid.uuid4()), "expected_version": version, "action": action, **fields}
    )


def records(table) -> dict:
    """Everything a refused command must leave as it was."""
    live = LiveTable.objects.select_related("current_round").get(pk=table.pk)
    return {
        "version": live.version,
        "snapshot": live.current_round.snapshot if live.current_round else None,
        "events": list(RoundEvent.objects.values_list("pk", flat=True)),
        "commands": Command.objects.count(),
        "money": (CashIn.objects.count(), Tip.objects.count(), RoundResult.objects.count()),
    }


async def answer(communicator) -> tuple[str, str]:
    """The next answer to the sender: (code, message)."""
    while True:
        found = ERROR.search(await communicator.receive_from(timeout=5))
        if found:
            return found.group(1), unescape(found.group(2))


async def betting(table, dealer_desk):
    def prepare():
        table.chip_denominations = CHIPS
        table.save(update_fields=["chip_denominations"])
        dealer_desk.start_round()
        return dealer_desk.version

    return await database_sync_to_async(prepare)()


async def refused_then_usable(dealer, table, version, message, code, words):
    """``message`` is refused with ``code`` and ``words``, nothing changes, and the socket
    then takes a good bet."""
    before = await database_sync_to_async(records)(table)
    await dealer.send_to(text_data=message)
    got_code, text = await answer(dealer)
    assert (got_code, words in text) == (code, True), text
    assert await database_sync_to_async(records)(table) == before
    await dealer.send_to(text_data=command("bet", version, box=3, seat="P3", stake="100"))
    assert await answer(dealer) == ("", "")  # accepted
    after = await database_sync_to_async(records)(table)
    assert after["version"] == before["version"] + 1
    assert len(after["events"]) == len(before["events"]) + 1


@pytest.mark.parametrize(("stake", "code", "words"), STAKES)
async def test_a_bad_stake_is_refused_on_an_open_socket_and_changes_nothing(
    english_crew, table, dealer_desk, stake, code, words
):
    version = await betting(table, dealer_desk)
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        await next_live(dealer)
        message = command("bet", version, box=1, seat="P1", stake=stake)
        await refused_then_usable(dealer, table, version, message, code, words)
    finally:
        await dealer.disconnect()


@pytest.mark.parametrize(("seat", "code", "words"), SEATS)
async def test_a_bad_seat_label_is_refused_not_cut(
    english_crew, table, dealer_desk, seat, code, words
):
    version = await betting(table, dealer_desk)
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        await next_live(dealer)
        message = command("bet", version, box=1, seat=seat, stake="100")
        await refused_then_usable(dealer, table, version, message, code, words)
    finally:
        await dealer.disconnect()


async def test_a_ten_thousand_digit_stake_is_refused_before_it_is_read(
    english_crew, table, dealer_desk
):
    # Longer than any message a screen may send: refused as a message, the socket stays.
    version = await betting(table, dealer_desk)
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        await next_live(dealer)
        message = command("bet", version, box=1, seat="P1", stake="9" * 10_000)
        await refused_then_usable(dealer, table, version, message, "bad_message", "cannot read")
    finally:
        await dealer.disconnect()


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        ("1e9999", "not_an_amount"),
        ("1e30", "not_an_amount"),
        ("１０", "not_an_amount"),
        ("10.001", "amount_decimals"),
        (1e308, "not_an_amount"),
        ("1000000000000", "amount_too_large"),
    ],
)
async def test_a_bad_insurance_is_refused_while_insurance_is_offered(
    english_crew, table, dealer_desk, amount, code
):
    def insurance_offered():
        dealer_desk.start_round({1: 100})
        dealer_desk.ok("close-bets")
        dealer_desk.cards("Th", "Ad", "9c")  # the dealer shows an ace
        return dealer_desk.version

    version = await database_sync_to_async(insurance_offered)()
    dealer = await connect(f"/ws/tables/{table.pk}/", english_crew["dealer"])
    try:
        assert 'data-phase="insurance"' in await next_live(dealer)
        before = await database_sync_to_async(records)(table)
        await dealer.send_to(text_data=command("insure", version, box=1, amount=amount))
        assert (await answer(dealer))[0] == code
        assert await database_sync_to_async(records)(table) == before
        await dealer.send_to(text_data=command("insure", version, box=1, amount="50"))
        assert await answer(dealer) == ("", "")
        after = await database_sync_to_async(records)(table)
        assert after["version"] == before["version"] + 1
    finally:
        await dealer.disconnect()


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("100", "100.00"),
        ("100,5", "100.50"),
        ("1 500,50", "1500.50"),
        ("2\u00a0500", "2500.00"),
        (" 250.5 ", "250.50"),
        (250, "250.00"),
    ],
)
def test_the_event_keeps_the_normalised_stake(table, dealer_desk, typed, kept):
    table.max_bet = Decimal("5000")
    table.save(update_fields=["max_bet"])
    dealer_desk.start_round()
    dealer_desk.ok("bet", box=1, seat="  P1  ", stake=typed)
    event = RoundEvent.objects.filter(type="bet").latest("seq")
    assert event.payload["command"]["stake"] == kept
    assert event.payload["command"]["seat"] == "P1"
    assert event.payload["events"][-1]["shares"] == [
        {"seat": "P1", "stake": kept, "player_card": ""}
    ]
