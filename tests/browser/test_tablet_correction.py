"""The tablet's correction is one act, and a table that is not open says so (issue 19,
item 7), in landscape (1280×800) and portrait (800×1280).

"Correct the last card" names the card being corrected, the next tap corrects exactly that
card, and the pad deals again: the next card goes to the next box, never corrects again.
A closed table's tablet says it is closed and offers no shuffle, round or money control; a
table that starts closing while the tablet is open says so at once."""

import pytest
from playwright.sync_api import expect

from floor.models import Alert
from game.models import Shoe
from tables.models import Table
from tests.browser.screens import SIZES, TOUCH, assert_in_view, assert_no_page_scroll, look
from tests.browser.tablet import Tablet, sign_in_with_pin
from tests.browser.test_tables import sign_in_pit_boss

pytestmark = pytest.mark.browser


def _dealt_to_box_1(page) -> Tablet:
    tablet = Tablet(page)
    tablet.shuffle()
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.bet(2, 100)
    tablet.tap("close-bets")
    tablet.card("7c")
    expect(page.get_by_test_id("awaiting")).to_have_text("Card to box 2")
    return tablet


def _cards_of(page, box: int) -> list[str]:
    cards = page.get_by_test_id(f"box-{box}").locator("[data-card]")
    return [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]


@pytest.mark.parametrize("size", SIZES)
def test_a_correction_corrects_one_card_and_the_pad_deals_again(new_page, crew, table, size):
    page = new_page(viewport=SIZES[size])
    sign_in_with_pin(page, "dealer")
    tablet = _dealt_to_box_1(page)
    expect(page.get_by_test_id("correcting-which")).to_be_hidden()
    assert_in_view(page.get_by_test_id("open-correction"), min_height=48, what="correct")

    page.get_by_test_id("open-correction").click()

    which = page.get_by_test_id("correcting-which")
    expect(which).to_have_text("Correcting 7♣ of box 1: tap the right card.")
    assert_no_page_scroll(page)
    assert_in_view(which, what="the card being corrected")
    assert_in_view(page.get_by_test_id("cancel-correction"), min_height=48, what="cancel")
    for code in ("7s", "Qd", "As", "Kc"):
        assert_in_view(
            page.get_by_test_id(f"card-{code}"), min_width=TOUCH, min_height=TOUCH, what=code
        )
    look(page, f"tablet-correction-{size}-1-correcting")

    tablet.card("7s")  # the correction: box 1's 7♣ becomes 7♠

    expect(which).to_be_hidden()
    expect(page.get_by_test_id("open-correction")).to_be_visible()
    expect(page.get_by_test_id("awaiting")).to_have_text("Card to box 2")
    look(page, f"tablet-correction-{size}-2-corrected")

    tablet.card("Qd")  # the next card: it goes to box 2, it corrects nothing

    expect(page.get_by_test_id("awaiting")).to_have_text("Card to the dealer")
    assert _cards_of(page, 1) == ["7s"]
    assert _cards_of(page, 2) == ["Qd"]
    corrected = Alert.objects.filter(table=table, kind="card_corrected")
    assert [(a.params["old"], a.params["new"]) for a in corrected] == [("7♣", "7♠")]
    look(page, f"tablet-correction-{size}-3-next-box")


def test_a_correction_can_be_cancelled(new_page, crew, table):
    page = new_page()
    sign_in_with_pin(page, "dealer")
    tablet = _dealt_to_box_1(page)
    page.get_by_test_id("open-correction").click()

    page.get_by_test_id("cancel-correction").click()
    tablet.card("Qd")

    assert _cards_of(page, 1) == ["7c"]
    assert _cards_of(page, 2) == ["Qd"]
    assert not Alert.objects.filter(table=table, kind="card_corrected").exists()


def test_the_last_card_of_a_settled_round_is_corrected_once(new_page, crew, table):
    """Only a correction is possible (the dealer's last card settled the round): the pad
    shows its keys only once the croupier chose to correct, and hides them again after."""
    page = new_page()
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    tablet.shuffle()
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.tap("close-bets")
    tablet.cards("Tc", "7d", "9c")  # box 1: 19 against the dealer's 7
    tablet.tap("stand")
    tablet.card("Kh")  # the dealer stands on 17: settled
    expect(page.get_by_test_id("confirm-settlement")).to_be_visible()
    expect(page.get_by_test_id("card-Qh")).to_be_hidden()

    page.get_by_test_id("open-correction").click()
    expect(page.get_by_test_id("correcting-which")).to_have_text(
        "Correcting K♥, the dealer's card: tap the right card."
    )
    assert_in_view(page.get_by_test_id("card-Qh"), min_width=TOUCH, min_height=TOUCH)
    look(page, "tablet-correction-settled")
    tablet.card("Qh")

    expect(page.get_by_test_id("card-Qh")).to_be_hidden()
    expect(page.get_by_test_id("open-correction")).to_be_visible()
    corrected = Alert.objects.filter(table=table, kind="card_corrected")
    assert [(a.params["old"], a.params["new"]) for a in corrected] == [("K♥", "Q♥")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_closed_tables_tablet_says_so_and_offers_no_shoe_round_or_money(
    new_page, crew, table, size, language
):
    table.status = Table.Status.CLOSED
    table.save(update_fields=["status"])
    page = new_page(viewport=SIZES[size], locale="en-US" if language == "en" else "ru-RU")

    sign_in_with_pin(page, "dealer")

    note = page.get_by_test_id("table-status-note")
    expect(page.get_by_test_id("shoe")).to_have_text("")
    expect(note).to_have_text(
        "This table is closed: no round, shuffle, cash-in or tip until it is opened again."
        if language == "en"
        else "Стол закрыт: ни розыгрыша, ни шафла, ни покупки фишек, ни чаевых, пока его "
        "снова не откроют."
    )
    assert_in_view(note, what="the table's status")
    assert_no_page_scroll(page)
    for control in ("shuffle", "shuffle-form", "open-round", "cash-link", "card-pad"):
        expect(page.get_by_test_id(control)).to_have_count(0 if control != "card-pad" else 1)
    expect(page.get_by_test_id("card-pad-box")).to_be_hidden()
    look(page, f"tablet-closed-{size}-{language}")
    assert not Shoe.objects.filter(table=table).exists()


def test_a_table_that_starts_closing_says_so_on_the_open_tablet(new_page, crew, table):
    dealer = new_page()
    sign_in_with_pin(dealer, "dealer")
    expect(dealer.get_by_test_id("shuffle-form")).to_have_count(1)
    expect(dealer.get_by_test_id("cash-link")).to_be_visible()
    boss = new_page()
    sign_in_pit_boss(boss)

    boss.get_by_test_id("checklist-1").click()
    boss.get_by_test_id("start-closing").click()
    expect(boss.get_by_test_id("table-status")).to_have_text("Closing")

    expect(dealer.get_by_test_id("table-status-note")).to_have_text(
        "This table is closing: no new round, shuffle, cash-in or tip."
    )
    expect(dealer.get_by_test_id("shuffle-form")).to_have_count(0)
    expect(dealer.get_by_test_id("cash-link")).to_be_hidden()
    look(dealer, "tablet-closing-landscape")
