"""The dealing croupier's tablet as the croupier sees it, in landscape (1280×800) and portrait
(800×1280): during a round the dealer's cards and total, the prompt, the legal actions and
the whole card pad are on the screen at once, nothing to scroll, every key a finger wide;
insurance inside its box; one instruction per box after settlement, with its chips."""

import pytest
from playwright.sync_api import expect

from tests.browser.screens import (
    SIZES,
    TOUCH,
    assert_in_view,
    assert_inside,
    assert_no_page_scroll,
    look,
)
from tests.browser.tablet import Tablet, sign_in_with_password, sign_in_with_pin

pytestmark = pytest.mark.browser

SUITS = "shdc"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def _pad_in_view(page, suited: bool) -> None:
    codes = [r + s for s in SUITS for r in RANKS] if suited else RANKS
    for code in codes:
        assert_in_view(
            page.get_by_test_id(f"card-{code}"), min_width=TOUCH, min_height=TOUCH, what=code
        )


def _round_in_view(page, suited: bool, *actions: str) -> None:
    """During a round: the dealer's hand and total, the prompt, the actions, the pad."""
    assert_no_page_scroll(page)
    assert_in_view(page.get_by_test_id("dealer-hand"), what="the dealer's hand")
    assert_in_view(page.get_by_test_id("awaiting"), what="the prompt")
    for action in actions:
        assert_in_view(page.get_by_test_id(action), min_height=TOUCH, what=action)
    _pad_in_view(page, suited)


def _phase(page, phase: str) -> None:
    expect(page.locator("#table-live")).to_have_attribute("data-phase", phase)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_round_fits_one_screen_from_the_deal_to_the_payout(new_page, crew, table, size, language):
    table.chip_denominations = ["50", "100", "500", "1000", "5000"]
    table.max_bet = 5000
    table.save()
    en = language == "en"
    size = f"{size}-{language}" if not en else size
    page = new_page(viewport=SIZES[size.split("-")[0]], locale="en-US" if en else "ru-RU")
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    assert_no_page_scroll(page)
    look(page, f"tablet-{size}-1-idle")

    tablet.shuffle()
    tablet.tap("open-round")
    tablet.bet(1, 500)
    tablet.bet(2, 100)
    tablet.bet(7, 1000)
    assert_no_page_scroll(page)
    assert_in_view(page.get_by_test_id("close-bets"), min_height=TOUCH)
    for box in (1, 4, 7):
        assert_in_view(page.get_by_test_id(f"stake-{box}"), what=f"stake of box {box}")
    look(page, f"tablet-{size}-2-betting")

    tablet.tap("close-bets")
    _round_in_view(page, True)
    look(page, f"tablet-{size}-3-dealing")

    # box 1: A K (Blackjack), box 2: 8 8, box 7: T 9, dealer: ace -> insurance
    tablet.cards("As", "8s", "Th", "Ad", "Kc", "8c", "9h")
    _phase(page, "insurance")
    assert_no_page_scroll(page)
    for box in (2, 7):
        form = page.get_by_test_id(f"insure-form-{box}")
        assert_in_view(form.get_by_role("button"), what=f"insure button of box {box}")
        assert_inside(form.get_by_role("button"), page.get_by_test_id(f"box-{box}"))
        assert_inside(
            page.get_by_test_id(f"insure-amount-{box}"), page.get_by_test_id(f"box-{box}")
        )
    assert_in_view(page.get_by_test_id("insurance-closed"), min_height=TOUCH)
    look(page, f"tablet-{size}-4-insurance")

    tablet.tap("insurance-closed")
    _phase(page, "players")
    expect(page.locator("#table-live")).to_have_attribute("data-awaiting", "decision:box 2 hand 1")
    _round_in_view(page, True, "stand", "double", "split")
    look(page, f"tablet-{size}-5-decision")

    tablet.tap("split")
    tablet.card("3d")  # 8 3 = 11
    tablet.tap("double")
    tablet.card("Td")  # 21, doubled
    # the box now has 100 + 100 doubled + 100 in play on a stake of 100
    expect(page.get_by_test_id("box-bet-2")).to_have_text("300.00" if en else "300,00")
    # its one player's line says his stake (no second "stake" line)
    expect(page.get_by_test_id("box-2").locator(".shares")).to_contain_text(
        "100.00" if en else "100,00"
    )
    tablet.card("9c")  # second hand 8 9 = 17
    tablet.tap("stand")
    tablet.tap("stand")  # box 7 stands on 19
    _phase(page, "dealer")
    _round_in_view(page, True)
    assert_in_view(page.get_by_test_id("dealer-instruction"), what="Draw")
    look(page, f"tablet-{size}-6-dealer")

    tablet.card("6h")  # A 6: soft 17, the dealer stands
    _phase(page, "settled")
    assert_no_page_scroll(page)
    if en:
        # box 1: Blackjack paid at once (3:2 on 500 = 750): nothing more to pay, one line
        expect(page.get_by_test_id("instruction-1")).to_have_text(
            "Nothing more: paid at once 750.00"
        )
        # box 2: 21 doubled wins 200, 17 pushes: pay 200 with two 100s
        expect(page.get_by_test_id("instruction-2")).to_contain_text("Pay 200.00")
    else:
        expect(page.get_by_test_id("instruction-2")).to_contain_text("Выплатить 200,00")
    expect(page.get_by_test_id("chips-2")).to_have_text("100 × 2")
    # box 7: 19 against 17 wins 1000: one 1000 chip
    expect(page.get_by_test_id("chips-7")).to_have_text("1,000 × 1" if en else "1 000 × 1")
    for box in (1, 2, 7):
        assert_in_view(page.get_by_test_id(f"instruction-{box}"), what=f"instruction {box}")
    assert_in_view(page.get_by_test_id("confirm-settlement"), min_height=TOUCH)
    look(page, f"tablet-{size}-7-settled")
    tablet.tap("confirm-settlement")
    _phase(page, "closed")


@pytest.mark.parametrize("size", SIZES)
def test_a_refusal_shows_next_to_the_pad_with_the_card_named(new_page, crew, table, size):
    table.rules = {"preset": "standard", "decks": 1}
    table.save()
    page = new_page(viewport=SIZES[size])
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    tablet.shuffle()
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.tap("close-bets")
    tablet.card("Ad")
    page.get_by_test_id("card-Ad").click()  # a second A♦ in a one-deck shoe

    error = tablet.error()
    expect(error).to_have_text(
        "There is no other A♦ in a 1-deck shoe: every copy of it is already out. Check the card."
    )
    assert_no_page_scroll(page)
    message = assert_in_view(error, what="the refusal")
    pad = assert_in_view(page.get_by_test_id("card-pad"), what="the card pad")
    assert pad["y"] - (message["y"] + message["height"]) < 40, "the refusal is not by the pad"
    look(page, f"tablet-{size}-refusal")

    # "The cut card came out" after one card of 52 asks first; the confirmation is in view.
    version = tablet.version
    page.get_by_test_id("cut-card-out").click()
    confirm = page.get_by_test_id("cut-card-out-confirm")
    expect(page.get_by_test_id("cut-card-confirm")).to_contain_text("Only 1 of 52 cards are out")
    assert tablet.version == version
    assert_in_view(confirm, min_height=TOUCH, what="the cut card's confirmation")
    look(page, f"tablet-{size}-cut-card-confirm")
    tablet.tap("cut-card-out-confirm")
    expect(page.locator("#table-live")).to_contain_text("the dealer chooses who cuts")


@pytest.mark.parametrize("size", SIZES)
def test_a_replaced_dealer_is_told_who_took_over_and_where_to_go(
    new_page, crew, table, make_user, size
):
    from staff.roles import Role

    relief = make_user("relief", [Role.DEALING_CROUPIER], full_name="Relief Dealer")
    page = new_page(viewport=SIZES[size])
    sign_in_with_pin(page, "dealer")

    # The pit boss puts the relief on the table from the staff screen.
    pitboss = new_page(viewport=SIZES[size])
    sign_in_with_password(pitboss, "pitboss", live=False)
    pitboss.goto("/tables/staff/")
    pitboss.get_by_test_id("assign-1-dealing_croupier").select_option(str(relief.pk))
    pitboss.get_by_test_id("assign-save-1-dealing_croupier").click()
    expect(pitboss.get_by_test_id("who-1-dealing_croupier")).to_have_text("Relief Dealer")
    look(pitboss, f"staff-{size}-after-assign")

    text = page.get_by_test_id("handed-over-text")
    expect(text).to_contain_text("You have been replaced by Relief Dealer")
    expect(text).to_contain_text("The table is handed over")
    assert_in_view(page.get_by_test_id("handed-over-home"), min_height=TOUCH)
    look(page, f"tablet-{size}-handed-over")
    page.get_by_test_id("handed-over-home").click()
    expect(page.get_by_test_id("home-heading")).to_have_text("Dealing croupier")
