"""The server side of issue 19, item 7 (the tablet itself: tests/browser/
test_tablet_correction.py): the fragment names the card "correct the last card" would
replace — and after a correction, the corrected one —; a correction replaces that one card
and the next card goes on; a table that is closing, closed or being opened takes no shuffle,
no new round and no cash, refused with a clear message, and its tablet says so."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from floor.models import Alert
from game.commands.messages import error_text
from game.models import Shoe
from game.screens.publish import render_fragment, table_view
from tables.models import Table
from tests.desk import current_round

pytestmark = pytest.mark.usefixtures("english")

NOT_OPEN = "The table is not open: no shuffle, round or cash until it is opened again."


def _live(table) -> str:
    return render_fragment(table_view(table.pk), "live", "en")


def _correcting(table) -> str | None:
    found = re.search(r'<p id="correcting-note" hidden>([^<]*)</p>', _live(table))
    return found.group(1) if found else None


def _dealt(dealer_desk):
    dealer_desk.start_round({1: 100, 2: 100})
    dealer_desk.ok("close-bets")


def test_the_fragment_names_the_card_a_correction_replaces(dealer_desk, table):
    _dealt(dealer_desk)
    assert _correcting(table) is None, "no card yet: nothing to correct"

    dealer_desk.ok("card", card="7c")
    assert _correcting(table) == "Correcting 7♣ of box 1: tap the right card."
    dealer_desk.ok("correct-card", card="7s")
    assert _correcting(table) == "Correcting 7♠ of box 1: tap the right card."

    dealer_desk.ok("card", card="Qd")
    assert _correcting(table) == "Correcting Q♦ of box 2: tap the right card."
    dealer_desk.ok("card", card="5h")
    assert _correcting(table) == "Correcting 5♥, the dealer's card: tap the right card."


def test_a_split_hand_is_named_with_its_hand(dealer_desk, table):
    _dealt(dealer_desk)
    dealer_desk.cards("8c", "Tc", "6d", "8h", "9h")  # box 1: 8 8; box 2: T 9
    dealer_desk.ok("split", box=1, hand=1)
    dealer_desk.ok("card", card="3s")
    assert _correcting(table) == "Correcting 3♠ of box 1, hand 1: tap the right card."


def test_a_correction_replaces_one_card_and_the_next_goes_to_the_next_box(dealer_desk, table):
    _dealt(dealer_desk)
    dealer_desk.ok("card", card="7c")
    dealer_desk.ok("correct-card", card="7s")

    dealer_desk.ok("card", card="Qd")

    boxes = current_round(table).snapshot["engine"]
    assert "7s" in str(boxes) and "Qd" in str(boxes) and "7c" not in str(boxes)
    corrected = Alert.objects.filter(table=table, kind="card_corrected")
    assert [(a.params["old"], a.params["new"]) for a in corrected] == [("7♣", "7♠")]
    assert "Card to the dealer" in _live(table)


@pytest.mark.parametrize("status", [Table.Status.CLOSING, Table.Status.CLOSED, "opening"])
def test_a_table_not_open_takes_no_shuffle_and_no_round(dealer_desk, table, status):
    table.status = status
    table.save(update_fields=["status"])

    shuffle = dealer_desk.send("shuffle", reason="new_shoe", cards_behind_cut=80)
    opening = dealer_desk.send("open-round")

    assert (shuffle.ok, shuffle.code) == (False, "table_not_open")
    assert (opening.ok, opening.code) == (False, "table_not_open")
    with translation.override("en"):
        assert error_text(shuffle.code, shuffle.params) == NOT_OPEN
    assert not Shoe.objects.filter(table=table).exists()
    html = _live(table)
    assert 'data-testid="table-status-note"' in html
    assert 'data-testid="shuffle-form"' not in html and 'data-testid="open-round"' not in html


def test_a_closing_table_finishes_the_round_in_play(dealer_desk, table):
    _dealt(dealer_desk)
    table.status = Table.Status.CLOSING
    table.save(update_fields=["status"])

    dealer_desk.cards("7c", "Qd", "5h")

    html = _live(table)
    assert "This table is closing: finish the round in play." in html
    assert dealer_desk.send("shuffle", reason="new_shoe", cards_behind_cut=80).code == (
        "table_not_open"
    )


def test_the_cash_page_of_a_closed_table_offers_no_cash_in_or_tip(client, crew, table):
    table.status = Table.Status.CLOSED
    table.save(update_fields=["status"])
    client.force_login(crew["dealer"])

    page = client.get(reverse("cashdesk:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en")
    tablet = client.get(reverse("game:dealer", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en")

    html = page.content.decode()
    assert "The table is not open: no cash-in or tip until it is opened again." in html
    assert 'data-testid="cash-in-form"' not in html and 'data-testid="tip-form"' not in html
    assert 'data-testid="cash-link"' not in tablet.content.decode()
