"""The tablet offers exactly the moves the engine accepts (``RoundState.legal_moves``): no
Insure on a Blackjack box where even money is offered instead, the insurance bound is the
engine's, and what the tablet offers goes through."""

import re

from game.screens.publish import render_fragment, table_view


def live_html(table) -> str:
    return render_fragment(table_view(table.pk), "live", "en")


def test_a_blackjack_box_is_offered_even_money_not_insurance(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 200})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("As", "9c", "Ad", "Kh", "7d")  # box 1 Blackjack; the dealer shows an ace
    html = live_html(table)
    assert 'data-testid="even-money-1"' in html
    assert 'data-testid="insure-form-1"' not in html
    assert 'data-testid="even-money-2"' not in html
    offered = re.search(r'value="([^"]+)"[^>]*data-testid="insure-amount-2"', html)
    assert offered, "box 2 may insure"
    assert offered.group(1).replace(",", "") in ("100", "100.00")  # half its bet
    assert dealer_desk.send("insure", box=1, amount="50").ok is False  # what is not offered
    assert dealer_desk.ok("insure", box=2, amount="100")  # what is offered goes through
    assert dealer_desk.ok("even-money", box=1)
