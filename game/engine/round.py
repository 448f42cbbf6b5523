"""The round state machine: bets, the deal, insurance, the players' turns, the dealer.

A ``RoundState`` is driven by actions (``apply(action) -> events``). Every action is
validated in full before anything changes, so an illegal action raises an ``EngineError`` and
leaves the round exactly as it was. Money is ``Decimal`` throughout. The boxes and hands are in
``hands.py``, every payout in ``settlement.py``, the event dicts in ``events.py``.

Phases: ``betting`` -> ``dealing`` -> (``insurance``) -> ``players`` -> ``dealer`` ->
(``turning``: the face-down double cards are entered as they are turned, ``double_card:
face-down``; and the players' face-down cards when a dealer Blackjack ends the round before
their box's turn, ``player_cards: face-down``) -> ``settled``. Phases may be skipped: a round
whose every bet was settled during the deal goes straight to ``settled``, and the dealer draws
only while some bet still depends on his hand.

(Named ``RoundState`` so it never collides with the Django model ``game.models.Round`` that
stores it.)
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_FLOOR, Decimal

from . import settlement
from .actions import (
    CENT,
    Action,
    Bet,
    CloseBets,
    Deal,
    DealDown,
    Double,
    EvenMoney,
    InsuranceClosed,
    Insure,
    Split,
    Stand,
    action_from_dict,
    action_to_dict,
    parse_action,
    to_chips,
)
from .cards import Card, ShoeState
from .errors import ActionError
from .events import actions_from_events
from .events import box_card as box_card_event
from .events import dealer_card as dealer_card_event
from .hands import Box, Hand, Limits
from .moves import Move
from .rules import Rules

__all__ = ["PHASES", "Box", "Hand", "Limits", "RoundState", "actions_from_events"]

ZERO = Decimal(0)
TWO = Decimal(2)
DEALER = -1  # a deal-plan target meaning the dealer

PHASES = ("betting", "dealing", "insurance", "players", "dealer", "turning", "settled")

_K_CARD = frozenset({"card"})
_K_CARD_DOWN = frozenset({"card-down"})
_K_BETTING = frozenset({"bet"})
_K_BETTING_CLOSE = frozenset({"bet", "close-bets"})
_K_NONE = frozenset()
_M_DEALER_CARD = (Move("card"),)


def _illegal(message: str, code: str = "illegal_action", **params) -> ActionError:
    return ActionError(message, code=code, **params)


class RoundState:
    """One round of Blackjack at one table.

    ``RoundState(rules, limits=None, boxes=range(1, 8), shoe=None)``: ``rules`` is a ``Rules``
    (or anything ``Rules.from_json`` reads); ``limits`` a ``Limits`` (or ``{"min", "max"}``) or
    ``None`` for no limits; ``boxes`` the box numbers of the table; ``shoe`` the shoe the cards
    come from (a fresh ``ShoeState`` of ``rules.decks`` decks if omitted). The shoe is shared,
    not copied: the live table and the simulator pass the same shoe to round after round.
    """

    def __init__(
        self,
        rules: Rules | str | dict = "standard",
        limits: Limits | dict | None = None,
        boxes: Iterable[int] = range(1, 8),
        shoe: ShoeState | None = None,
    ):
        self.rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
        self.limits = (
            limits if limits is None or isinstance(limits, Limits) else (Limits.from_dict(limits))
        )
        self.boxes = boxes if isinstance(boxes, tuple) else tuple(boxes)
        self.shoe = shoe if shoe is not None else ShoeState(self.rules.decks)
        self.phase = "betting"
        self.bets: dict[int, Decimal] = {}
        self.seats: list[Box] = []
        self.dealer: list[Card] = []
        self._dhard = 0  # the dealer's count with aces as 1, kept as cards come
        self._dace = False
        self._plan: list[int] = []
        self._plan_pos = 0
        self._tb = 0  # turn: index into seats
        self._th = 0  # turn: index into that box's hands (the hand that decides next)
        self._need = ""  # in the players phase: "card" or "decision"
        # ``split_deal: both-hands``: the hands (indexes in the turn's box) that get their
        # second card before the next decision, in order. Empty otherwise.
        self._deal_to: list[int] = []
        self.insurance_offered = False
        # ``player_cards: face-down``: the boxes' cards of the deal go face down (``DealDown``)
        # and are entered as they are turned, at the box's turn
        # (docs/sources.md#players-cards-face-down). Derived from the rules, never stored.
        self._down = self.rules.player_cards == "face-down"
        # The move stack (``push`` / ``pop``): each action pushed and the position before it.
        self._stack: list[tuple[Action, dict]] = []

    # -- queries --------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == "settled"

    def _target(self) -> int:
        """In the players phase: the index of the hand the next card or decision is for."""
        return self._deal_to[0] if self._deal_to else self._th

    @property
    def turn(self) -> tuple[int, int] | str | None:
        """Whose turn: ``(box number, hand index from 0)``, ``"dealer"``, or ``None``. While a
        card is due it is the hand (or the dealer) that receives it."""
        phase = self.phase
        if phase == "players":
            return (self.seats[self._tb].number, self._target())
        if phase == "dealer":
            return "dealer"
        if phase == "dealing":
            t = self._plan[self._plan_pos]
            return "dealer" if t == DEALER else (self.seats[t].number, 0)
        if phase == "turning":
            tb, th = self._face_down()
            return (self.seats[tb].number, th)
        return None

    def current_hand(self) -> Hand | None:
        """The hand whose turn it is in the players phase (the one ``turn`` names)."""
        if self.phase != "players":
            return None
        return self.seats[self._tb].hands[self._deal_to[0] if self._deal_to else self._th]

    def box(self, number: int) -> Box | None:
        for b in self.seats:
            if b.number == number:
                return b
        return None

    @property
    def dealer_total(self) -> tuple[int, bool]:
        """The dealer's ``(total, soft)``."""
        hard = self._dhard
        if self._dace and hard <= 11:
            return hard + 10, True
        return hard, False

    @property
    def dealer_blackjack(self) -> bool:
        d = self.dealer
        return (
            len(d) == 2 and d[0].value + d[1].value == 11 and (d[0].value == 1 or d[1].value == 1)
        )

    def card_down_due(self) -> bool:
        """Whether the next card of the deal goes face down to a box (``player_cards:
        face-down``): the action due is ``DealDown``, not ``Deal``."""
        return self._down and self.phase == "dealing" and self._plan[self._plan_pos] != DEALER

    def face_down(self, box: int, hand: int = 0) -> int:
        """How many of a hand's cards lie face down, dealt and not yet entered: the
        players' face-down cards of the deal (``player_cards: face-down``) and a face-down
        double's card (``double_card: face-down``). ``hand`` counts from 0."""
        b = self.box(box)
        if b is None or hand >= len(b.hands):
            return 0
        h = b.hands[hand]
        double = (
            self.rules.double_card == "face-down"
            and h.doubled
            and len(h.cards) == 2
            and not h.settled
            and self.phase != "settled"
        )
        return h.down + double

    @property
    def cards_face_down(self) -> int:
        """How many cards lie face down in this round, out of the shoe and not yet entered
        (the shoe's own count takes each when it is entered)."""
        return sum(
            self.face_down(box.number, i) for box in self.seats for i in range(len(box.hands))
        )

    def dealer_must_draw(self) -> bool | None:
        """During the dealer's turn: True while he must draw (``awaiting`` is ``card:dealer``);
        False once he stands or stops (the round is then settled); None before his turn."""
        if self.phase == "dealer":
            return True
        if self.phase in ("settled", "turning"):
            return False
        return None

    def awaiting(self) -> str | None:
        """What the round waits for, as a short machine string (``None`` when settled):

        ``bet`` (betting; ``close-bets`` ends it), ``card:box 3`` (initial deal; ``card-down:box
        3`` with ``player_cards: face-down``: a card dealt face down, not entered),
        ``card:dealer``, ``insurance``, ``card:box 3 hand 2`` (a split hand's second card or a
        double's card — with ``double_card: face-down`` entered when it is turned, after the
        dealer's hand), ``decision:box 3 hand 1`` (stand, hit = the next card, double, split).
        Hand numbers here count from 1.
        """
        phase = self.phase
        if phase == "players":
            return f"{self._need}:box {self.seats[self._tb].number} hand {self._target() + 1}"
        if phase == "dealing":
            t = self._plan[self._plan_pos]
            if t == DEALER:
                return "card:dealer"
            return f"{'card-down' if self._down else 'card'}:box {self.seats[t].number}"
        if phase == "dealer":
            return "card:dealer"
        if phase == "turning":
            tb, th = self._face_down()
            return f"card:box {self.seats[tb].number} hand {th + 1}"
        if phase == "betting":
            return "bet"
        if phase == "insurance":
            return "insurance"
        return None

    def legal_actions(self) -> frozenset[str]:
        """The action kinds legal now: ``bet``, ``close-bets``, ``card``, ``stand``,
        ``double``, ``split``, ``insure``, ``even-money``, ``insurance-closed`` — exactly the
        kinds of ``legal_moves()`` (this is its fast form, for the simulator)."""
        phase = self.phase
        if phase == "players":
            if self._need == "card":
                return _K_CARD
            box = self.seats[self._tb]
            th = self._th
            hand = box.hands[th]
            kinds = {"stand"}
            if self._can_hit(hand):
                kinds.add("card")
            if self._double_refusal(box, hand, th) is None:
                kinds.add("double")
            if self._split_refusal(box, hand, th) is None:
                kinds.add("split")
            return frozenset(kinds)
        if phase == "dealing":
            return _K_CARD_DOWN if self.card_down_due() else _K_CARD
        if phase in ("dealer", "turning"):
            return _K_CARD
        if phase == "betting":
            return _K_BETTING_CLOSE if self.bets else _K_BETTING
        if phase == "insurance":
            kinds = {"insurance-closed"}
            for b in self.seats:
                if self._insure_refusal(b) is None:
                    kinds.add("insure")
                if self._even_money_refusal(b) is None:
                    kinds.add("even-money")
            return frozenset(kinds)
        return _K_NONE

    def legal_moves(self) -> list[Move]:
        """Every move legal now, with its box, hand (index from 0) and amount bounds; each is
        accepted by ``apply(move.to_action(...))`` with any amount from ``low`` to ``high``
        in whole cents, and no other move of its kind is. See ``moves.Move``."""
        phase = self.phase
        if phase == "players":
            return self._player_moves()
        if phase == "dealing":
            t = self._plan[self._plan_pos]
            if t == DEALER:
                return [Move("card")]
            return [Move("card-down" if self._down else "card", self.seats[t].number, 0)]
        if phase == "dealer":
            return list(_M_DEALER_CARD)
        if phase == "turning":
            tb, th = self._face_down()
            return [Move("card", self.seats[tb].number, th)]
        if phase == "betting":
            return self._bet_moves()
        if phase == "insurance":
            return self._insurance_moves()
        return []

    def _bet_moves(self) -> list[Move]:
        lim = self.limits
        low, high = (CENT, None) if lim is None else (lim.min, lim.max)
        moves = []
        for n in self.boxes:
            moves.append(Move("bet", n, low=low, high=high))
            if n in self.bets:
                moves.append(Move("bet", n, low=ZERO, high=ZERO))  # remove the bet
        if self.bets:
            moves.append(Move("close-bets"))
        return moves

    def _insurance_moves(self) -> list[Move]:
        moves = []
        for b in self.seats:
            if self._insure_refusal(b) is None:
                half = _half_in_cents(b.bet)
                low = half if self.rules.insurance_amount == "half" else CENT
                moves.append(Move("insure", b.number, low=low, high=half))
            if self._even_money_refusal(b) is None:
                moves.append(Move("even-money", b.number))
        moves.append(Move("insurance-closed"))
        return moves

    def _player_moves(self) -> list[Move]:
        box = self.seats[self._tb]
        n = box.number
        if self._need == "card":
            return [Move("card", n, self._target())]
        th = self._th
        hand = box.hands[th]
        moves = [Move("stand", n, th)]
        if self._can_hit(hand):
            moves.append(Move("card", n, th))
        if self._double_refusal(box, hand, th) is None:
            moves.append(Move("double", n, th))
        if self._split_refusal(box, hand, th) is None:
            moves.append(Move("split", n, th))
        return moves

    # -- applying actions -----------------------------------------------------------------

    def apply(self, action: Action) -> list[dict]:
        """Apply one action and return the events it caused; raise ``EngineError`` (state
        unchanged) if it is not legal now."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise _illegal(f"Not an action: {action!r}", code="bad_action")
        if self.phase == "settled":
            raise _illegal("The round is over: nothing more can happen in it", code="round_over")
        events: list[dict] = []
        handler(self, action, events)
        return events

    # -- the move stack (python-chess's ``Board.push`` / ``pop``) -----------------------------

    def push(self, action: Action) -> list[dict]:
        """``apply`` the action and keep it on the move stack with the position before it, so
        that ``pop`` can take it back. An illegal action raises as ``apply`` does and is not
        pushed."""
        before = self._position()
        events = self.apply(action)
        self._stack.append((action, before))
        return events

    def pop(self) -> Action:
        """Take back the last action pushed: the round — and its shoe, in place — is exactly
        as it was before it. Returns that action; raises ``ActionError`` (``nothing_to_undo``)
        when no action was pushed (or kept by ``to_dict(undo=...)``)."""
        if not self._stack:
            raise _illegal("No action to take back", code="nothing_to_undo")
        action, before = self._stack.pop()
        self.shoe.set_position(before["shoe"])
        self._set_state(before)
        return action

    @property
    def move_stack(self) -> list[Action]:
        """The actions pushed, oldest first (those ``pop`` can take back)."""
        return [action for action, _ in self._stack]

    def peek(self) -> Action | None:
        """The last action pushed (the one ``pop`` would take back), or None."""
        return self._stack[-1][0] if self._stack else None

    @classmethod
    def replay(
        cls,
        rules: Rules | str | dict,
        limits: Limits | dict | None,
        actions: Iterable[Action | dict | str],
        boxes: Iterable[int] = range(1, 8),
        shoe: ShoeState | None = None,
    ) -> RoundState:
        """A fresh round with the actions applied in order (dicts and script words accepted)."""
        r = cls(rules, limits, boxes, shoe)
        for a in actions:
            if isinstance(a, dict):
                a = action_from_dict(a)
            elif isinstance(a, str):
                a = parse_action(a)
            r.apply(a)
        return r

    # betting

    def _on_bet(self, a: Bet, events: list) -> None:
        if self.phase != "betting":
            raise _illegal("Bets are closed for this round", code="bets_closed")
        box = a.box
        if box not in self.boxes:
            raise _illegal(f"There is no box {box} at this table", code="unknown_box", box=box)
        amount = to_chips(a.amount, "bet")
        if amount < 0:
            raise _illegal(
                f"A bet cannot be negative ({amount})", code="bad_amount", amount=str(amount)
            )
        if amount == 0:
            if box not in self.bets:
                raise _illegal(f"Box {box} has no bet to remove", code="no_bet_on_box", box=box)
            del self.bets[box]
            events.append({"kind": "bet", "box": box, "amount": "0"})
            return
        lim = self.limits
        if lim is not None:
            if amount < lim.min:
                raise _illegal(
                    f"Box {box}: the bet {amount} is under the table minimum {lim.min}",
                    code="bet_under_minimum",
                    box=box,
                    amount=str(amount),
                    min=str(lim.min),
                )
            if amount > lim.max:
                raise _illegal(
                    f"Box {box}: the bet {amount} is over the table maximum {lim.max}",
                    code="bet_over_maximum",
                    box=box,
                    amount=str(amount),
                    max=str(lim.max),
                )
        self.bets[box] = amount
        events.append({"kind": "bet", "box": box, "amount": str(amount)})

    def _on_close_bets(self, a: CloseBets, events: list) -> None:
        if self.phase != "betting":
            raise _illegal("Bets are already closed", code="bets_closed")
        if not self.bets:
            raise _illegal("No bets are placed: place a bet before closing bets", code="no_bets")
        self.seats = [Box(n, self.bets[n]) for n in sorted(self.bets)]
        n = len(self.seats)
        plan = list(range(n)) + [DEALER] + list(range(n))
        if self.rules.dealer_cards != "one":
            plan.append(DEALER)
        self._plan = plan
        self._plan_pos = 0
        self.phase = "dealing"
        events.append({"kind": "bets_closed", "boxes": [b.number for b in self.seats]})

    # cards

    def _on_deal(self, a: Deal, events: list) -> None:
        # The hottest path of the simulator (every card): the initial deal is handled inline.
        card = a.card
        phase = self.phase
        if phase == "dealing":
            t = self._plan[self._plan_pos]
            if self._down and t != DEALER:
                number = self.seats[t].number
                raise _illegal(
                    f"Box {number}'s card is dealt face down (card-down): it is entered when "
                    "it is turned, at the box's turn",
                    code="card_face_down",
                    box=number,
                )
            self.shoe.take(card)  # checks before it changes anything
            self._plan_pos += 1
            if t == DEALER:
                hole = len(self.dealer) == 1 and self.rules.dealer_cards == "hole"
                self._deal_dealer(card, hole, events)
            else:
                box = self.seats[t]
                hand = box.hands[0]
                hand.add(card)
                if hand.hard == 11 and hand.aces == 1 and len(hand.cards) == 2:
                    hand.natural = True  # ``two_card_21``, inline
                events.append(box_card_event(box.number, 1, card, hand.total, hand.soft))
            if self._plan_pos == len(self._plan):
                self._after_deal(events)
        elif phase == "players":
            self._deal_to_hand(card, events)
        elif phase == "dealer":
            self.shoe.take(card)  # checks before it changes anything
            self._deal_dealer(card, False, events)
            self._after_dealer_card(events)
        elif phase == "turning":
            self._turn_card(card, events)
        else:
            raise _illegal(self._no_card_message(), code="illegal_action")

    def _on_deal_down(self, a: DealDown, events: list) -> None:
        """``player_cards: face-down``: the deal's card for a box goes face down; the shoe
        gives up the card when it is turned and entered (``_turn_down``)."""
        if not self.card_down_due():
            if not self._down:
                why = "the players' cards are dealt face up at this table"
            elif self.phase == "dealing":
                why = "the dealer's card is due: enter it"
            else:
                why = "face-down cards are dealt only in the initial deal, to the boxes"
            raise _illegal(f"No face-down card now: {why}", code="card_down_not_now")
        t = self._plan[self._plan_pos]
        self._plan_pos += 1
        box = self.seats[t]
        box.hands[0].down += 1
        events.append({"kind": "card_down", "box": box.number, "hand": 1})
        if self._plan_pos == len(self._plan):
            self._after_deal(events)

    def _turn_down(self, box: Box, hand: Hand, index: int, card: Card, events: list) -> None:
        """A player's face-down card turned and entered (before the shoe has given it up, the
        shoe checks it). The second makes the hand whole: a Blackjack then is known, and is
        paid or noted as it would have been at the end of the deal."""
        self.shoe.take(card)  # checks before it changes anything
        hand.down -= 1
        hand.add(card)
        event = box_card_event(box.number, index + 1, card, hand.total, hand.soft)
        event["turned"] = True
        events.append(event)
        if hand.down or len(hand.cards) != 2 or hand.split or not hand.two_card_21:
            return
        hand.natural = True
        hand.done = True
        if self.phase == "turning":  # a dealer Blackjack is settled once all are turned
            return
        if self.rules.dealer_cards == "one" and self.dealer[0].value in (1, 10):
            events.append({"kind": "blackjack_noted", "box": box.number})
        else:  # no dealer Blackjack can come (a peek, open cards, or a 2-9 up card)
            settlement.pay_blackjack(box, hand, self.rules, events)

    def _no_card_message(self) -> str:
        if self.phase == "betting":
            return "No card yet: bets are not closed"
        if self.phase == "insurance":
            return "No card now: insurance is open (close it with insurance-closed)"
        return "No card is due now"

    def _deal_dealer(self, card: Card, hole: bool, events: list) -> None:
        self.dealer.append(card)
        hard = self._dhard = self._dhard + card.value
        if card.value == 1:
            self._dace = True
        soft = self._dace and hard <= 11
        events.append(dealer_card_event(card, hard + 10 if soft else hard, soft, hole))

    def _deal_to_hand(self, card: Card, events: list) -> None:
        """A card in the players' turn: a hit, a double's card, or a split hand's second."""
        box = self.seats[self._tb]
        index = self._deal_to[0] if self._deal_to else self._th
        hand = box.hands[index]
        if hand.down:
            self._turn_down(box, hand, index, card, events)
            self._find_turn(events)
            return
        if self._need == "decision" and not self._can_hit(hand):
            raise _illegal(
                f"Box {box.number} hand {index + 1}: no more cards on split aces",
                code="hit_not_allowed",
                box=box.number,
                hand=index + 1,
            )
        self.shoe.take(card)  # checks before it changes anything
        if self._deal_to:
            del self._deal_to[0]
        hand.add(card)
        events.append(box_card_event(box.number, index + 1, card, hand.total, hand.soft))
        self._after_hand_card(box, hand, index, events)
        if self._deal_to:  # both-hands: the other split hand's second card comes next
            self._need = "card"
            return
        self._find_turn(events)

    def _after_hand_card(self, box: Box, hand: Hand, index: int, events: list) -> None:
        """Settle or close a hand its latest card decided: a bust, 7-7-7, a split Blackjack
        won at once, a double's card, 21, or a split ace's one card."""
        rules = self.rules
        cards = hand.cards
        if hand.hard > 21:
            hand.settle("lose", -hand.bet)
            events.append(
                {
                    "kind": "bust",
                    "box": box.number,
                    "hand": index + 1,
                    "total": hand.total,
                    "net": str(hand.net),
                }
            )
        elif rules.three_sevens and len(cards) == 3 and all(c.rank == "7" for c in cards):
            settlement.pay_three_sevens(box, hand, index + 1, events)
        elif hand.split and hand.two_card_21 and rules.split_blackjack == "instant-win":
            settlement.pay_split_blackjack(box, hand, index + 1, events)
        elif hand.doubled or hand.total == 21:
            hand.done = True
        elif hand.split_aces and not rules.hit_split_aces and not hand.pair:
            hand.done = True  # one card on a split ace; another ace may be split again

    def _can_hit(self, hand: Hand) -> bool:
        return hand.hard < 21 and not (
            hand.split_aces and not self.rules.hit_split_aces and len(hand.cards) >= 2
        )

    # the end of the initial deal

    def _after_deal(self, events: list) -> None:
        rules = self.rules
        family = rules.dealer_cards
        if family == "open":
            if self.dealer_blackjack:
                self._dealer_blackjack_now(events)
                return
            settlement.pay_waiting_blackjacks(self.seats, rules, events)
            self._start_players(events)
            return
        if self.dealer[0].value == 1 and self._offer_insurance():
            self._open_insurance(events)
            return
        if family == "hole":
            self._peek(events)
            return
        self._one_card_blackjacks(events)
        self._start_players(events)

    def _open_insurance(self, events: list) -> None:
        self.phase = "insurance"
        self.insurance_offered = True
        events.append(
            {
                "kind": "insurance_open",
                "boxes": [b.number for b in self.seats if self._insure_refusal(b) is None],
                "even_money": [b.number for b in self.seats if self._even_money_refusal(b) is None],
            }
        )
        if self.rules.dealer_cards == "one":
            # Blackjacks against the ace are noted now; even money may still be taken.
            for b in self.seats:
                if b.hands[0].blackjack:
                    b.hands[0].done = True
                    events.append({"kind": "blackjack_noted", "box": b.number})

    def _one_card_blackjacks(self, events: list) -> None:
        up = self.dealer[0]
        for b in self.seats:
            h = b.hands[0]
            if h.blackjack and not h.done:
                h.done = True
                if up.value in (1, 10):
                    events.append({"kind": "blackjack_noted", "box": b.number})
                else:
                    settlement.pay_blackjack(b, h, self.rules, events)

    def _offer_insurance(self) -> bool:
        rules = self.rules
        if rules.insurance:
            return True
        return rules.even_money and any(b.hands[0].blackjack for b in self.seats)

    def _peek(self, events: list) -> None:
        if self.dealer[0].value in (1, 10):
            bj = self.dealer_blackjack
            events.append({"kind": "peek", "blackjack": bj})
            if bj:
                self._dealer_blackjack_now(events)
                return
        settlement.settle_insurance(self.seats, False, events)
        settlement.pay_waiting_blackjacks(self.seats, self.rules, events)
        self._start_players(events)

    # insurance

    def _insure_refusal(self, box: Box) -> str | None:
        if not self.rules.insurance:
            return "Insurance is not offered at this table"
        if box.insurance is not None:
            return f"Box {box.number} is already insured"
        if box.even_money:
            return f"Box {box.number} took even money"
        if box.hands[0].blackjack and self.rules.even_money:
            return f"Box {box.number} has Blackjack: it is offered even money, not insurance"
        if _half_in_cents(box.bet) < CENT:
            return f"Box {box.number}: half its bet is under a cent, too little to insure"
        return None

    def _even_money_refusal(self, box: Box) -> str | None:
        if not self.rules.even_money:
            return "Even money is not offered at this table"
        if box.hands[0].down:
            return (
                f"Box {box.number}'s cards lie face down: its Blackjack is not known before "
                "its turn, so no even money (insurance of half the bet pays the same)"
            )
        if not box.hands[0].blackjack:
            return f"Box {box.number} has no Blackjack: even money is only for a Blackjack"
        if box.even_money:
            return f"Box {box.number} already took even money"
        if box.insurance is not None:
            return f"Box {box.number} is insured"
        return None

    def _insurance_box(self, number: int, what: str) -> Box:
        rules = self.rules
        if not (rules.insurance if what == "Insurance" else rules.even_money):
            raise _illegal(
                f"{what} is not offered at this table",
                code="insurance_not_allowed" if what == "Insurance" else "even_money_not_allowed",
            )
        if self.phase != "insurance":
            raise _illegal(
                f"{what} is offered only while the dealer shows an ace, before play",
                code="insurance_closed",
            )
        box = self.box(number)
        if box is None:
            raise _illegal(
                f"Box {number} has no bet in this round", code="no_bet_on_box", box=number
            )
        return box

    def _on_insure(self, a: Insure, events: list) -> None:
        box = self._insurance_box(a.box, "Insurance")
        why = self._insure_refusal(box)
        if why is not None:
            raise _illegal(why, code="insurance_not_allowed", box=box.number)
        amount = to_chips(a.amount, "insurance")
        half = box.bet / TWO
        if amount <= 0:
            raise _illegal(
                f"Box {box.number}: insurance must be more than 0",
                code="bad_amount",
                box=box.number,
                amount=str(amount),
            )
        if amount > half:
            raise _illegal(
                f"Box {box.number}: insurance {amount} is over half the bet ({half})",
                code="insurance_over_half",
                box=box.number,
                amount=str(amount),
                max=str(half),
            )
        if self.rules.insurance_amount == "half" and amount != _half_in_cents(box.bet):
            # docs/sources.md#insurance: «в размере половины своей ставки» (003).
            half = _half_in_cents(box.bet)
            raise _illegal(
                f"Box {box.number}: insurance is exactly half the bet ({half}), not {amount}",
                code="insurance_not_half",
                box=box.number,
                amount=str(amount),
                half=str(half),
            )
        box.insurance = amount
        events.append({"kind": "insurance", "box": box.number, "amount": str(amount)})

    def _on_even_money(self, a: EvenMoney, events: list) -> None:
        box = self._insurance_box(a.box, "Even money")
        why = self._even_money_refusal(box)
        if why is not None:
            raise _illegal(why, code="even_money_not_allowed", box=box.number)
        settlement.pay_even_money(box, events)

    def _on_insurance_closed(self, a: InsuranceClosed, events: list) -> None:
        if self.phase != "insurance":
            raise _illegal("Insurance is not open", code="insurance_closed")
        events.append({"kind": "insurance_closed"})
        if self.rules.dealer_cards == "hole":
            self._peek(events)
            return
        self._start_players(events)

    # the players' turns

    def _start_players(self, events: list) -> None:
        self._tb = 0
        self._th = 0
        self._find_turn(events)

    def _find_turn(self, events: list) -> None:
        """From the current hand on, the first hand with something to do; the dealer's turn
        when there is none."""
        seats = self.seats
        tb, th = self._tb, self._th
        while tb < len(seats):
            box = seats[tb]
            hands = box.hands
            while th < len(hands):
                h = hands[th]
                if h.split_aces and not h.done and self._nothing_to_decide(box, h, th):
                    h.done = True
                if not h.done:
                    self._tb, self._th = tb, th
                    self.phase = "players"
                    self._need = "card" if len(h.cards) < 2 else "decision"
                    return
                th += 1
            tb += 1
            th = 0
        self._tb, self._th = tb, 0
        self._need = ""
        self._dealer_turn(events)

    def _nothing_to_decide(self, box: Box, hand: Hand, index: int) -> bool:
        # A split ace holding a second ace it can no longer split (another hand took the last
        # place in max_hands since): it may take no card, so it stands by itself.
        return (
            len(hand.cards) >= 2
            and hand.split_aces
            and not self.rules.hit_split_aces
            and self._split_refusal(box, hand, index) is not None
        )

    def _double_refusal(self, box: Box, hand: Hand, index: int) -> str | None:
        # Called for every decision (legal_actions): the message is only built to refuse.
        rules = self.rules
        why = None
        if len(hand.cards) != 2 or hand.doubled:
            why = "doubling is allowed only on the first two cards"
        elif hand.split and not rules.double_after_split:
            why = "no doubling after a split at this table"
        elif hand.split and hand.split_aces and not rules.hit_split_aces:
            why = "split aces take one card only"
        else:
            totals = rules.double_totals
            if totals is not None and (hand.soft or hand.total not in totals):
                why = f"doubling is allowed only on {rules.double_on} (this is {hand.total})"
        return None if why is None else f"Box {box.number} hand {index + 1}: {why}"

    def _split_refusal(self, box: Box, hand: Hand, index: int) -> str | None:
        # Called for every decision (legal_actions): the message is only built to refuse.
        rules = self.rules
        cards = hand.cards
        why = None
        if len(cards) != 2 or cards[0].value != cards[1].value:  # (``hand.pair``, inline)
            why = "only two cards of the same value can be split"
        elif len(box.hands) >= rules.max_hands:
            why = f"at most {rules.max_hands} hands on a box"
        elif hand.split_aces and not rules.resplit_aces:
            why = "split aces cannot be split again at this table"
        return None if why is None else f"Box {box.number} hand {index + 1}: {why}"

    def _decision(self, what: str) -> tuple[Box, Hand]:
        if self.phase == "players" and self.seats[self._tb].hands[self._target()].down:
            number = self.seats[self._tb].number
            raise _illegal(
                f"No {what} now: {self._no_decision()}", code="cards_face_down", box=number
            )
        if self.phase != "players" or self._need != "decision":
            raise _illegal(f"No {what} now: {self._no_decision()}", code="illegal_action")
        box = self.seats[self._tb]
        return box, box.hands[self._th]

    def _no_decision(self) -> str:
        if self.phase == "players":
            number = self.seats[self._tb].number
            if self.seats[self._tb].hands[self._target()].down:
                return f"box {number}'s cards lie face down: enter each as it is turned"
            return f"box {number} hand {self._target() + 1} needs a card first"
        return {
            "betting": "bets are not closed",
            "dealing": "the cards are being dealt",
            "insurance": "insurance is open",
            "dealer": "it is the dealer's turn",
        }.get(self.phase, "nothing is due")

    def _on_stand(self, a: Stand, events: list) -> None:
        box, hand = self._decision("stand")
        hand.done = True
        events.append(
            {"kind": "stand", "box": box.number, "hand": self._th + 1, "total": hand.total}
        )
        self._th += 1
        self._find_turn(events)

    def _on_double(self, a: Double, events: list) -> None:
        box, hand = self._decision("double")
        why = self._double_refusal(box, hand, self._th)
        if why is not None:
            raise _illegal(why, code="double_not_allowed", box=box.number, hand=self._th + 1)
        hand.bet = hand.bet * TWO
        hand.doubled = True
        event = {"kind": "double", "box": box.number, "hand": self._th + 1, "bet": str(hand.bet)}
        events.append(event)
        if self.rules.double_card == "face-down":
            # docs/sources.md#double: 003 «третья карта остаётся лежать рубашкой вверх до
            # самого конца игры» — dealt face down, entered when it is turned (``turning``).
            event["face_down"] = True
            hand.done = True
            self._th += 1
            self._find_turn(events)
            return
        self._need = "card"

    def _on_split(self, a: Split, events: list) -> None:
        box, hand = self._decision("split")
        th = self._th
        why = self._split_refusal(box, hand, th)
        if why is not None:
            raise _illegal(why, code="split_not_allowed", box=box.number, hand=th + 1)
        first, second = hand.cards
        aces = first.value == 1
        new = Hand(box.bet, split=True, split_aces=aces)
        new.add(second)
        hand.cards = [first]
        hand.hard = first.value
        hand.aces = 1 if aces else 0
        hand.split = True
        hand.split_aces = aces
        box.hands.insert(th + 1, new)
        self._need = "card"
        if self.rules.split_deal == "both-hands":
            self._deal_to = [th, th + 1]
        events.append(
            {
                "kind": "split",
                "box": box.number,
                "hand": th + 1,
                "hands": len(box.hands),
                "bet": str(box.bet),
            }
        )

    # the dealer

    def _dealer_turn(self, events: list) -> None:
        if self.rules.dealer_cards == "hole" and len(self.dealer) == 2:
            events.append({"kind": "hole_revealed", "card": self.dealer[1].code})
        self._dealer_next(events)

    def _dealer_next(self, events: list) -> None:
        total, soft = self.dealer_total
        stands = total > 17 or (total == 17 and not (soft and self.rules.dealer_hits_soft_17))
        if stands:
            events.append(
                {
                    "kind": "dealer_bust" if total > 21 else "dealer_stands",
                    "total": total,
                    "soft": soft,
                }
            )
            if self._face_down() is not None:
                self.phase = "turning"
                return
            settlement.settle_against_total(self.seats, self.rules, total, events)
            self._finish(events)
            return
        if self._bets_depend_on_dealer():
            self.phase = "dealer"
            return
        events.append(
            {
                "kind": "dealer_stops",
                "total": total,
                "reason": "no bet depends on the dealer's hand",
            }
        )
        settlement.settle_against_total(self.seats, self.rules, total, events)
        self._finish(events)

    def _bets_depend_on_dealer(self) -> bool:
        for b in self.seats:
            for h in b.hands:
                if not h.settled and not h.blackjack:
                    return True
        if len(self.dealer) < 2:
            # Blackjacks waiting on the dealer's second card, and insurance bets.
            for b in self.seats:
                if b.insurance is not None and b.insurance_net is None:
                    return True
                h = b.hands[0]
                if h.blackjack and not h.settled:
                    return True
        return False

    def _after_dealer_card(self, events: list) -> None:
        if len(self.dealer) == 2 and self.rules.dealer_cards == "one":
            if self.dealer_blackjack:
                self._dealer_blackjack_now(events)
                return
            settlement.settle_insurance(self.seats, False, events)
            settlement.pay_waiting_blackjacks(self.seats, self.rules, events)
        self._dealer_next(events)

    def _dealer_blackjack_now(self, events: list) -> None:
        """The dealer has Blackjack: insurance wins, then every hand is settled against it."""
        events.append({"kind": "dealer_blackjack"})
        settlement.settle_insurance(self.seats, True, events)
        if self._face_down() is not None:  # the face-down double cards first
            self.phase = "turning"
            return
        settlement.settle_dealer_blackjack(self.seats, self.rules, events)
        self._finish(events)

    # turning the face-down cards (``double_card: face-down``; ``player_cards: face-down``
    # when a dealer Blackjack ends the round before a box's turn)

    def _face_down(self) -> tuple[int, int] | None:
        """The first hand, in play order, with a card lying face down not yet entered — a
        double's card, or a player's card of the deal: (box index, hand index), or None."""
        double = self.rules.double_card == "face-down"
        if not double and not self._down:
            return None
        for tb, box in enumerate(self.seats):
            for th, hand in enumerate(box.hands):
                if hand.down or (
                    double and hand.doubled and len(hand.cards) == 2 and not hand.settled
                ):
                    return tb, th
        return None

    def _turn_card(self, card: Card, events: list) -> None:
        """The face-down card turned and entered: it settles its hand (a bust, 7-7-7) or
        leaves it to the settlement, which comes once every such card is entered."""
        tb, th = self._face_down()
        box = self.seats[tb]
        hand = box.hands[th]
        if hand.down:
            self._turn_down(box, hand, th, card, events)
        else:
            self.shoe.take(card)  # checks before it changes anything
            hand.add(card)
            event = box_card_event(box.number, th + 1, card, hand.total, hand.soft)
            event["turned"] = True
            events.append(event)
            self._after_hand_card(box, hand, th, events)
        if self._face_down() is not None:
            return
        if self.dealer_blackjack:
            settlement.settle_dealer_blackjack(self.seats, self.rules, events)
        else:
            settlement.settle_against_total(self.seats, self.rules, self.dealer_total[0], events)
        self._finish(events)

    def _finish(self, events: list) -> None:
        self.phase = "settled"
        self._need = ""
        events.append(
            {
                "kind": "round_settled",
                "net": str(self.net),
                "boxes": {str(b.number): str(b.net) for b in self.seats},
            }
        )

    # -- results --------------------------------------------------------------------------

    @property
    def net(self) -> Decimal:
        """The players' result so far (+ gained); the house's result is ``-net``."""
        net = ZERO
        for b in self.seats:
            net += b.net
        return net

    def result(self) -> dict:
        """The round as the CLI prints it (amounts as ``Decimal``; see ``docs/engine.md``)."""
        total, soft = self.dealer_total
        out: dict = {"finished": self.phase == "settled"}
        if self.phase != "settled":
            out["awaiting"] = self.awaiting()
        out["phase"] = self.phase
        out["dealer"] = {
            "cards": [c.code for c in self.dealer],
            "total": total,
            "soft": soft,
            "blackjack": self.dealer_blackjack,
            "bust": total > 21,
        }
        out["boxes"] = [b.result() for b in self.seats]
        out["net"] = self.net
        return out

    # -- serialisation --------------------------------------------------------------------

    def to_dict(self, *, undo: int = 0) -> dict:
        """The whole state, JSON-safe (Decimals as strings, cards as codes). With ``undo``,
        also the last ``undo`` actions of the move stack with the position before each
        (``stack``), so that the round read back can ``pop`` them; the stack is history, not
        state: two rounds are equal whatever their stacks."""
        d = {
            "rules": self.rules.to_json(),
            "limits": None if self.limits is None else self.limits.to_dict(),
            "boxes": list(self.boxes),
            "shoe": self.shoe.to_dict(),
            **self._state(),
        }
        if undo > 0 and self._stack:
            d["stack"] = [
                {"action": action_to_dict(action), "before": before}
                for action, before in self._stack[-undo:]
            ]
        return d

    def _state(self) -> dict:
        """What an action changes, but the shoe (JSON-safe)."""
        return {
            "phase": self.phase,
            "bets": {str(k): str(v) for k, v in self.bets.items()},
            "seats": [b.to_dict() for b in self.seats],
            "dealer": [c.code for c in self.dealer],
            "plan": list(self._plan),
            "plan_pos": self._plan_pos,
            "turn": [self._tb, self._th],
            "need": self._need,
            "deal_to": list(self._deal_to),
            "insurance_offered": self.insurance_offered,
        }

    def _position(self) -> dict:
        """What an action changes, the shoe's part included: what ``pop`` restores."""
        return {"shoe": self.shoe.position(), **self._state()}

    def _set_state(self, d: dict) -> None:
        self.phase = d["phase"]
        self.bets = {int(k): Decimal(v) for k, v in d["bets"].items()}
        self.seats = [Box.from_dict(b) for b in d["seats"]]
        self.dealer = []
        self._dhard = 0
        self._dace = False
        for c in d["dealer"]:
            card = Card.parse(c)
            self.dealer.append(card)
            self._dhard += card.value
            self._dace = self._dace or card.value == 1
        self._plan = list(d["plan"])
        self._plan_pos = d["plan_pos"]
        self._tb, self._th = d["turn"]
        self._need = d["need"]
        self._deal_to = list(d.get("deal_to", ()))
        self.insurance_offered = d["insurance_offered"]

    @classmethod
    def from_dict(cls, d: dict) -> RoundState:
        """Rebuild a round from ``to_dict`` (its move stack too, as far as it was kept). A
        snapshot stored before a rule key existed lacks it and gets the ``standard`` preset's
        value, which is the behaviour it was played under (``split_blackjack: twenty-one``,
        ``split_deal: in-turn``)."""
        r = cls(
            Rules.from_json({"preset": "standard", **d["rules"]}),
            Limits.from_dict(d["limits"]),
            tuple(d["boxes"]),
            ShoeState.from_dict(d["shoe"]),
        )
        r._set_state(d)
        r._stack = [(action_from_dict(e["action"]), e["before"]) for e in d.get("stack", ())]
        return r

    def __eq__(self, other) -> bool:
        return isinstance(other, RoundState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<RoundState {self.phase} awaiting={self.awaiting()!r} net={self.net}>"


def _half_in_cents(bet: Decimal) -> Decimal:
    """The most a box may insure: half its bet, down to whole cents (with
    ``insurance_amount: half``, exactly what it insures)."""
    return (bet / TWO).quantize(CENT, rounding=ROUND_FLOOR)


_HANDLERS = {
    Bet: RoundState._on_bet,
    CloseBets: RoundState._on_close_bets,
    Deal: RoundState._on_deal,
    DealDown: RoundState._on_deal_down,
    Stand: RoundState._on_stand,
    Double: RoundState._on_double,
    Split: RoundState._on_split,
    Insure: RoundState._on_insure,
    EvenMoney: RoundState._on_even_money,
    InsuranceClosed: RoundState._on_insurance_closed,
}
