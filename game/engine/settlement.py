"""Every payout of a round: the one place a hand's or an insurance's net is decided.

Functions over the boxes of a round (``hands.Box``) and its ``Rules``; each settles what it is
given, appends the events that say so, and never looks at the round's phase or turn (that is
``round.py``'s business).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from . import events as ev
from .hands import Box, Hand
from .rules import Rules

ZERO = Decimal(0)
TWO = Decimal(2)
THREE = Decimal(3)
FIVE = Decimal(5)


def pay_blackjack(box: Box, hand: Hand, rules: Rules, events: list) -> None:
    """A player Blackjack paid at the table's rate (3:2, 6:5 or 1:1)."""
    net = hand.bet * rules.bj_ratio
    hand.settle("win", net)
    events.append({"kind": "blackjack_paid", "box": box.number, "hand": 1, "net": str(net)})


def pay_waiting_blackjacks(seats: Iterable[Box], rules: Rules, events: list) -> None:
    """Pay every Blackjack not yet paid (the dealer cannot have Blackjack any more)."""
    for b in seats:
        h = b.hands[0]
        if h.blackjack and not h.settled:
            pay_blackjack(b, h, rules, events)


def pay_even_money(box: Box, events: list) -> None:
    """A Blackjack against a dealer ace taking 1:1 at once."""
    box.even_money = True
    hand = box.hands[0]
    hand.settle("win", hand.bet)
    events.append({"kind": "even_money", "box": box.number, "net": str(hand.bet)})


def pay_three_sevens(box: Box, hand: Hand, hand_number: int, events: list) -> None:
    """7-7-7 (docs/sources.md#three-sevens): 3:1 of the hand's bet, 5:1 when all three are of
    one suit; the hand is settled at once. Cards entered without suits can only make the 3:1."""
    cards = hand.cards
    suited = cards[0].suit is not None and cards[0].suit == cards[1].suit == cards[2].suit
    net = hand.bet * (FIVE if suited else THREE)
    hand.settle("win", net)
    box.bonuses.append(
        {
            "kind": "three_sevens",
            "hand": hand_number,
            "suited": suited,
            "pays": "5:1" if suited else "3:1",
            "amount": str(net),
        }
    )
    events.append(
        {
            "kind": "three_sevens",
            "box": box.number,
            "hand": hand_number,
            "suited": suited,
            "net": str(net),
        }
    )


def pay_split_blackjack(box: Box, hand: Hand, hand_number: int, events: list) -> None:
    """``split_blackjack: instant-win`` (docs/sources.md#split-twenty-one): an ace and a ten on
    a split hand is won at once, 1:1 of the hand's bet, and waits for nothing."""
    hand.settle("win", hand.bet)
    events.append(
        {
            "kind": "split_blackjack_paid",
            "box": box.number,
            "hand": hand_number,
            "net": str(hand.bet),
        }
    )


def settle_insurance(seats: Iterable[Box], dealer_blackjack: bool, events: list) -> None:
    """Insurance pays 2:1 when the dealer has Blackjack and is lost otherwise."""
    for b in seats:
        if b.insurance is not None and b.insurance_net is None:
            b.insurance_net = b.insurance * TWO if dealer_blackjack else -b.insurance
            events.append(
                {
                    "kind": "insurance_settled",
                    "box": b.number,
                    "bet": str(b.insurance),
                    "net": str(b.insurance_net),
                }
            )


def _blackjack_against_blackjack(hand: Hand, rules: Rules) -> None:
    if rules.blackjack_beats_dealer_blackjack:
        hand.settle("win", hand.bet * rules.bj_ratio)
    elif rules.ties == "push":
        hand.settle("push", ZERO)
    else:
        hand.settle("lose", -hand.bet)


def settle_dealer_blackjack(seats: Iterable[Box], rules: Rules, events: list) -> None:
    """The dealer has Blackjack: Blackjacks tie (or lose with ``ties: dealer``, or win under
    ``blackjack_beats_dealer_blackjack``), every other hand still in play loses.

    ``dealer_blackjack_takes: original`` (one-card game only): a box loses to the dealer's
    Blackjack no more than its original bet *in all*, counting what its busted hands already
    lost this round; the hands still in play lose, in hand order, what is left of that bet,
    and the rest of their stakes (doubles, extra split hands) is returned. A busted hand is
    never given back. Worked examples in docs/engine.md ("What a dealer Blackjack takes").
    """
    original_only = rules.dealer_cards == "one" and rules.dealer_blackjack_takes == "original"
    for b in seats:
        # What the dealer's Blackjack may still take from this box under ``original``.
        left = b.bet - sum((-h.net for h in b.hands if h.settled and h.net < 0), ZERO)
        for i, h in enumerate(b.hands):
            if h.settled:
                continue
            if h.blackjack:
                _blackjack_against_blackjack(h, rules)
            elif original_only:
                loss = min(h.bet, max(left, ZERO))
                left -= loss
                h.settle("lose" if loss else "push", -loss)
            else:
                h.settle("lose", -h.bet)
            events.append(ev.hand_settled(b.number, i + 1, h.result, h.net))


def settle_against_total(
    seats: Iterable[Box], rules: Rules, dealer_total: int, events: list
) -> None:
    """The dealer stood (or busted) without Blackjack: dealer bust -> every remaining hand wins
    1:1; higher total wins 1:1; equal pushes (``ties: dealer`` -> loses); lower loses."""
    bust = dealer_total > 21
    push_ties = rules.ties == "push"
    for b in seats:
        for i, h in enumerate(b.hands):
            if h.settled:
                continue
            if h.blackjack:
                # Only if the dealer never drew a second card (cannot happen: a waiting
                # Blackjack makes him draw); pay it as a Blackjack to be safe.
                h.settle("win", h.bet * rules.bj_ratio)
            else:
                total = h.total
                if bust or total > dealer_total:
                    h.settle("win", h.bet)
                elif total == dealer_total and push_ties:
                    h.settle("push", ZERO)
                else:
                    h.settle("lose", -h.bet)
            events.append(ev.hand_settled(b.number, i + 1, h.result, h.net))
    settle_insurance(seats, False, events)
