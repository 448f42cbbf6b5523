"""The worst round on the dealer's tablet, as the croupier sees it at 1280×800 and 800×1280,
in English and Russian: seven boxes, each split into four hands of six cards, every card,
total, badge and result — and after the dealer's draw every settlement instruction with its
chips — wholly on the screen, not covered (``elementFromPoint``) and clipped by no
``overflow``; the prompt, the actions and the card pad in view with it; every control a
finger wide. The rated players open as a drawer over the table: the bets and the pad stay
where they were."""

from collections import Counter

import pytest
from playwright.sync_api import expect

from game.table.live import TableRound
from tests.browser.screens import (
    SIZES,
    TOUCH,
    assert_all_seen,
    assert_controls_at_least,
    assert_in_view,
    assert_no_page_scroll,
    look,
)
from tests.browser.tablet import Tablet, sign_in_with_pin
from tests.game.conftest import Desk, current_round

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-US", "ru": "ru-RU"}
PAIRS = {1: "2", 2: "3", 3: "4", 4: "5", 5: "6", 6: "7", 7: "8"}  # each box splits its pair
# Each split hand's cards after its pair card: four that keep it under 21, then a sixth
# (21 and 19 win against the dealer's 18, a king busts). Counted to fit an 8-deck shoe.
REST = {
    1: ["9", "4", "3", "2", "A"],  # 2 9 4 3 2 A = 21
    2: ["8", "3", "3", "2", "2"],  # 3 8 3 3 2 2 = 21
    3: ["7", "4", "3", "2", "K"],  # bust 30
    4: ["6", "3", "3", "A", "K"],  # bust 28
    5: ["5", "A", "2", "2", "K"],  # bust 26
    6: ["4", "A", "A", "2", "4"],  # 7 4 1 1 2 4 = 19
    7: ["3", "A", "A", "A", "5"],  # 8 3 1 1 1 5 = 19
}
DECKS = 8


class _Shoe:
    """Cards as a real 8-deck shoe holds them: no card more often than eight times."""

    def __init__(self):
        self.out = Counter()

    def has(self, rank: str) -> bool:
        return any(self.out[rank + s] < DECKS for s in "shdc")

    def take(self, rank: str) -> str:
        for suit in "shdc":
            if self.out[rank + suit] < DECKS:
                self.out[rank + suit] += 1
                return rank + suit
        raise AssertionError(f"no {rank} left in the shoe")


def _engine(table):
    return TableRound.from_dict(current_round(table).snapshot).engine


def _play_to_the_last_hand(desk: Desk, table, shoe: _Shoe) -> None:
    """Seven boxes, each split into four hands, each hand dealt to six cards; stops at the
    last hand's last decision (or wherever the players' turn ends)."""
    desk.start_round(dict.fromkeys(PAIRS, 1000), cards_behind_cut=120)
    desk.ok("close-bets")
    for n in PAIRS:
        desk.ok("card", card=shoe.take(PAIRS[n]))
    desk.ok("card", card=shoe.take("5"))  # the dealer's card
    for n in PAIRS:
        desk.ok("card", card=shoe.take(PAIRS[n]))
    while True:
        engine = _engine(table)
        if engine.phase != "players":
            return
        number, index = engine.turn
        box = engine.box(number)
        hand = box.hands[index]
        if engine.awaiting().startswith("card"):  # a split hand's second card
            rank = PAIRS[number] if len(box.hands) < 4 else REST[number][0]
            desk.ok("card", card=shoe.take(rank))
            continue
        legal = engine.legal_actions()
        last = number == 7 and index == len(box.hands) - 1 and len(box.hands) == 4
        if "split" in legal and len(box.hands) < 4:
            desk.ok("split")
        elif len(hand.cards) < 6 and "card" in legal:
            desk.ok("card", card=shoe.take(REST[number][len(hand.cards) - 1]))
        elif last:
            return
        else:
            desk.ok("stand")


def _everything_seen(page) -> None:
    cards = assert_all_seen(page, ".boxes .playing-card", at_least=7 * 4 * 5, what="a card")
    assert cards >= 7 * 4 * 5, cards
    assert_all_seen(page, '[data-testid^="hand-"]', at_least=28, what="a hand")
    assert_all_seen(page, '.boxes [data-testid="total"]', at_least=28, what="a hand's total")
    assert_all_seen(page, ".boxes .badge", at_least=0, what="a hand's badge")
    assert_all_seen(page, '[data-testid^="box-bet-"]', at_least=7, what="a box's bet")
    assert_all_seen(page, '[data-testid="dealer-hand"]', what="the dealer's hand")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_worst_round_fits_the_tablet(new_page, crew, table, size, language):
    table.rules = {"preset": "standard", "decks": DECKS}
    table.chip_denominations = ["100", "500", "1000", "5000"]
    table.max_bet = 5000
    table.save()
    shoe = _Shoe()
    _play_to_the_last_hand(Desk(table, crew["dealer"]), table, shoe)
    assert all(len(b.hands) == 4 for b in _engine(table).seats), "every box split in four"

    page = new_page(locale=LANGUAGES[language], viewport=SIZES[size])
    sign_in_with_pin(page, "dealer")
    tablet = Tablet(page)
    name = f"worst-round-{language}-{size}"
    assert_no_page_scroll(page)
    _everything_seen(page)
    assert_all_seen(page, '[data-testid="awaiting"]', what="the prompt")
    if _engine(table).phase == "players":
        assert_in_view(page.get_by_test_id("stand"), min_height=TOUCH, what="Stand")
    for key in page.locator('[data-testid^="card-"]').all():
        assert_in_view(key, min_width=TOUCH, min_height=TOUCH)
    assert_controls_at_least(page, 48)
    look(page, f"{name}-1-decision")

    if _engine(table).phase == "players":
        tablet.tap("stand")
    dealer = [shoe.take("6"), shoe.take("7")]  # 5 6 7: the dealer stands on 18
    tablet.cards(*(c for c in dealer))
    expect(page.locator("#table-live")).to_have_attribute("data-phase", "settled")
    assert_no_page_scroll(page)
    _everything_seen(page)
    assert_all_seen(page, '[data-testid^="result-"]', at_least=28, what="a hand's result")
    assert_all_seen(page, '[data-testid^="instruction-"]', at_least=7, what="an instruction")
    assert_all_seen(page, '[data-testid^="chips-"]', what="the chips to pay")
    assert_all_seen(page, ".boxes .chip", what="a chip")
    assert_in_view(page.get_by_test_id("confirm-settlement"), min_height=TOUCH)
    assert_controls_at_least(page, 48)
    look(page, f"{name}-2-settled")


@pytest.mark.parametrize("size", SIZES)
def test_the_rated_players_open_over_the_table_and_move_nothing(new_page, crew, table, size):
    desk = Desk(table, crew["dealer"])
    for seat in ("1", "2"):
        desk.ok("player-in", seat=seat, player_card="")
    desk.start_round(dict.fromkeys(range(1, 8), 100))
    page = new_page(viewport=SIZES[size])
    sign_in_with_pin(page, "dealer")
    stakes = [page.get_by_test_id(f"bet-form-{n}") for n in range(1, 8)]
    before = [s.bounding_box() for s in stakes]
    assert_all_seen(page, '[data-testid^="bet-form-"]', at_least=7, what="a box's bet form")
    assert_controls_at_least(page, 48)
    # the table's limits, the stake field's hint, are read whole (not cut by the field)
    cut = page.locator('[data-testid^="stake-"]').evaluate_all(
        """els => els.filter(el => {
          const s = getComputedStyle(el), ctx = document.createElement("canvas").getContext("2d");
          ctx.font = s.font;
          const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
          return ctx.measureText(el.placeholder).width > room;
        }).map(el => el.dataset.testid + " «" + el.placeholder + "»")"""
    )
    assert not cut, f"the stake hint is cut off: {cut}"
    page.get_by_test_id("rated-open").click()
    for seat in ("1", "2"):
        assert_all_seen(page, f'[data-testid="rated-{seat}"]', what=f"the row of seat {seat}")
    assert_all_seen(page, '[data-testid="player-in-form"] button', what="Seated")
    assert [s.bounding_box() for s in stakes] == before, "opening the panel moved the bets"
    assert_no_page_scroll(page)
    look(page, f"rated-drawer-{size}")
    page.get_by_test_id("rated-open").click()
    assert_all_seen(page, '[data-testid^="bet-form-"]', at_least=7, what="a box's bet form")


@pytest.mark.parametrize("size", SIZES)
def test_a_prompt_leaves_the_bets_and_its_own_controls_in_view(new_page, crew, table, size):
    """The newcomer's consent prompt (a newcomer on a free box) and an observer's note
    between the bets: every bet form, the prompt's fields and "bets closed" stay in view."""
    desk = Desk(table, crew["dealer"])
    desk.start_round({1: 100, 3: 100})
    desk.ok("close-bets")
    desk.cards("Th", "9c", "5d", "9h", "Tc")  # box 1: 19, box 3: 19; dealer 5
    desk.ok("stand")
    desk.ok("stand")
    desk.cards("Kd", "4s")  # dealer 19: pushes
    desk.ok("confirm-settlement")
    desk.ok("open-round")
    for box, seat in ((1, "P1"), (3, "P3"), (5, "N5"), (6, "N6")):
        desk.ok("bet", box=box, seat=seat, stake="100")
    Desk(table, crew["observer"]).ok("flag", note="Box 3 was paid twice last round")
    page = new_page(viewport=SIZES[size])
    sign_in_with_pin(page, "dealer")
    expect(page.get_by_test_id("newcomer-prompt")).to_be_visible()
    assert_no_page_scroll(page)
    assert_all_seen(page, '[data-testid^="bet-form-"] button', at_least=7, what="a Bet button")
    assert_all_seen(
        page,
        '[data-testid^="newcomer-refused-"] input:not([type=hidden])',
        at_least=4,
        what="a field",
    )
    assert_all_seen(page, '[data-testid="close-bets"]', what="bets closed")
    assert_all_seen(page, '[data-testid="flag"]', what="the observer's note")
    assert_controls_at_least(page, 48)
    look(page, f"tablet-{size}-newcomer-prompt")
