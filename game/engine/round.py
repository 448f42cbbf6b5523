"""The round state machine: bets, the deal, insurance, the players' turns, the dealer, settlement.

A ``Round`` is driven by actions (``apply(action) -> events``). Every action is validated in
full before anything changes, so an illegal action raises an ``EngineError`` and leaves the
round exactly as it was. Money is ``Decimal`` throughout.

Phases: ``betting`` -> ``dealing`` -> (``insurance``) -> ``players`` -> ``dealer`` ->
``settled``. Phases may be skipped: a round whose every bet was settled during the deal goes
straight to ``settled``, and the dealer draws only while some bet still depends on his hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from .actions import (
    Action,
    Bet,
    CloseBets,
    Deal,
    Double,
    EvenMoney,
    InsuranceClosed,
    Insure,
    Split,
    Stand,
    action_from_dict,
    to_amount,
)
from .cards import Card, Shoe
from .errors import ActionError, EngineError
from .rules import Rules

ZERO = Decimal(0)
TWO = Decimal(2)
THREE = Decimal(3)
FIVE = Decimal(5)
DEALER = -1  # a deal-plan target meaning the dealer

PHASES = ("betting", "dealing", "insurance", "players", "dealer", "settled")

_K_CARD = frozenset({"card"})
_K_BETTING = frozenset({"bet"})
_K_BETTING_CLOSE = frozenset({"bet", "close-bets"})
_K_NONE = frozenset()


@dataclass(frozen=True, slots=True)
class Limits:
    """A table's minimum and maximum bet per box."""

    min: Decimal
    max: Decimal

    def __post_init__(self):
        lo = to_amount(self.min, "minimum bet")
        hi = to_amount(self.max, "maximum bet")
        if lo <= 0 or hi < lo:
            raise EngineError(
                f"Table limits must satisfy 0 < min <= max, got {lo} - {hi}",
                code="bad_limits",
                min=str(lo),
                max=str(hi),
            )
        object.__setattr__(self, "min", lo)
        object.__setattr__(self, "max", hi)

    def to_dict(self) -> dict:
        return {"min": str(self.min), "max": str(self.max)}

    @classmethod
    def from_dict(cls, d: dict | None) -> Limits | None:
        if d is None:
            return None
        if isinstance(d, Limits):
            return d
        if not isinstance(d, dict) or "min" not in d or "max" not in d:
            raise EngineError('limits must be {"min": ..., "max": ...}', code="bad_limits")
        return cls(d["min"], d["max"])


class Hand:
    """One hand of a box: its cards, stake and outcome.

    ``done``: the player can do nothing more with it. ``settled``: its result and net are final
    (a bust, a Blackjack paid at once, even money, three sevens, or the settlement).
    """

    __slots__ = (
        "cards",
        "hard",
        "aces",
        "bet",
        "doubled",
        "split",
        "split_aces",
        "done",
        "settled",
        "result",
        "net",
        "natural",
    )

    def __init__(self, bet: Decimal, split: bool = False, split_aces: bool = False):
        self.cards: list[Card] = []
        self.hard = 0
        self.aces = 0
        self.bet = bet
        self.doubled = False
        self.split = split
        self.split_aces = split_aces
        self.done = False
        self.settled = False
        self.result: str | None = None
        self.net = ZERO
        self.natural = False  # set when the original hand's second card makes Blackjack

    def add(self, card: Card) -> None:
        self.cards.append(card)
        self.hard += card.value
        if card.value == 1:
            self.aces += 1

    @property
    def total(self) -> int:
        hard = self.hard
        return hard + 10 if self.aces and hard <= 11 else hard

    @property
    def soft(self) -> bool:
        return bool(self.aces) and self.hard <= 11

    @property
    def blackjack(self) -> bool:
        """Ace and ten as the first two cards of a box's original hand (never after a split)."""
        return self.natural

    @property
    def bust(self) -> bool:
        return self.hard > 21

    def settle(self, result: str, net: Decimal) -> None:
        self.done = True
        self.settled = True
        self.result = result
        self.net = net

    def to_dict(self) -> dict:
        return {
            "cards": [c.code for c in self.cards],
            "bet": str(self.bet),
            "doubled": self.doubled,
            "split": self.split,
            "split_aces": self.split_aces,
            "done": self.done,
            "settled": self.settled,
            "result": self.result,
            "net": str(self.net),
        }

    @classmethod
    def from_dict(cls, d: dict) -> Hand:
        h = cls(Decimal(d["bet"]), d["split"], d["split_aces"])
        for code in d["cards"]:
            h.add(Card.parse(code))
        h.doubled = d["doubled"]
        h.done = d["done"]
        h.settled = d["settled"]
        h.result = d["result"]
        h.net = Decimal(d["net"])
        h.natural = not h.split and len(h.cards) == 2 and h.hard == 11 and h.aces == 1
        return h


class Box:
    """A playing box: one bet (however many players share it), its hands, insurance, bonuses."""

    __slots__ = ("number", "bet", "hands", "insurance", "insurance_net", "even_money", "bonuses")

    def __init__(self, number: int, bet: Decimal):
        self.number = number
        self.bet = bet
        self.hands = [Hand(bet)]
        self.insurance: Decimal | None = None
        self.insurance_net: Decimal | None = None  # None until the insurance is decided
        self.even_money = False
        self.bonuses: list[dict] = []

    @property
    def net(self) -> Decimal:
        """What the box has gained (+) or lost (-) so far: settled hands and insurance."""
        net = ZERO
        for h in self.hands:
            if h.settled:
                net += h.net
        if self.insurance_net is not None:
            net += self.insurance_net
        return net

    def to_dict(self) -> dict:
        return {
            "box": self.number,
            "bet": str(self.bet),
            "hands": [h.to_dict() for h in self.hands],
            "insurance": None if self.insurance is None else str(self.insurance),
            "insurance_net": None if self.insurance_net is None else str(self.insurance_net),
            "even_money": self.even_money,
            "bonuses": [dict(b) for b in self.bonuses],
        }

    @classmethod
    def from_dict(cls, d: dict) -> Box:
        b = cls(d["box"], Decimal(d["bet"]))
        b.hands = [Hand.from_dict(h) for h in d["hands"]]
        b.insurance = None if d["insurance"] is None else Decimal(d["insurance"])
        b.insurance_net = None if d["insurance_net"] is None else Decimal(d["insurance_net"])
        b.even_money = d["even_money"]
        b.bonuses = [dict(x) for x in d["bonuses"]]
        return b


def _illegal(message: str, code: str = "illegal_action", **params) -> ActionError:
    return ActionError(message, code=code, **params)


class Round:
    """One round of Blackjack at one table.

    ``Round(rules, limits=None, boxes=range(1, 8), shoe=None)``: ``rules`` is a ``Rules`` (or
    anything ``Rules.from_json`` reads); ``limits`` a ``Limits`` (or ``{"min", "max"}``) or
    ``None`` for no limits; ``boxes`` the box numbers of the table; ``shoe`` the shoe the cards
    come from (a fresh shoe of ``rules.decks`` decks if omitted). The shoe is shared, not
    copied: the live table and the simulator pass the same shoe to round after round.
    """

    def __init__(
        self,
        rules: Rules | str | dict = "standard",
        limits: Limits | dict | None = None,
        boxes: Iterable[int] = range(1, 8),
        shoe: Shoe | None = None,
    ):
        self.rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
        self.limits = (
            limits if limits is None or isinstance(limits, Limits) else (Limits.from_dict(limits))
        )
        self.boxes = boxes if isinstance(boxes, tuple) else tuple(boxes)
        self.shoe = shoe if shoe is not None else Shoe(self.rules.decks)
        self.phase = "betting"
        self.bets: dict[int, Decimal] = {}
        self.seats: list[Box] = []
        self.dealer: list[Card] = []
        self._dhard = 0  # the dealer's count with aces as 1, kept as cards come
        self._dace = False
        self._plan: list[int] = []
        self._plan_pos = 0
        self._tb = 0  # turn: index into seats
        self._th = 0  # turn: index into that box's hands
        self._need = ""  # in the players phase: "card" or "decision"
        self.insurance_offered = False

    # -- queries --------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == "settled"

    @property
    def turn(self) -> tuple[int, int] | str | None:
        """Whose turn: ``(box number, hand index from 0)``, ``"dealer"``, or ``None``."""
        phase = self.phase
        if phase == "players":
            return (self.seats[self._tb].number, self._th)
        if phase == "dealer":
            return "dealer"
        if phase == "dealing":
            t = self._plan[self._plan_pos]
            return "dealer" if t == DEALER else (self.seats[t].number, 0)
        return None

    def current_hand(self) -> Hand | None:
        """The hand whose turn it is in the players phase."""
        if self.phase != "players":
            return None
        return self.seats[self._tb].hands[self._th]

    def box(self, number: int) -> Box | None:
        for b in self.seats:
            if b.number == number:
                return b
        return None

    def _add_dealer(self, card: Card) -> None:
        self.dealer.append(card)
        self._dhard += card.value
        if card.value == 1:
            self._dace = True

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

    def dealer_must_draw(self) -> bool | None:
        """During the dealer's turn: True while he must draw (``awaiting`` is ``card:dealer``);
        False once he stands or stops (the round is then settled); None before his turn."""
        if self.phase == "dealer":
            return True
        if self.phase == "settled":
            return False
        return None

    def awaiting(self) -> str | None:
        """What the round waits for, as a short machine string (``None`` when settled):

        ``bet`` (betting; ``close-bets`` ends it), ``card:box 3`` (initial deal),
        ``card:dealer``, ``insurance``, ``card:box 3 hand 2`` (a split hand's second card or a
        double's card), ``decision:box 3 hand 1`` (stand, hit = the next card, double, split).
        Hand numbers here count from 1.
        """
        phase = self.phase
        if phase == "players":
            return f"{self._need}:box {self.seats[self._tb].number} hand {self._th + 1}"
        if phase == "dealing":
            t = self._plan[self._plan_pos]
            return "card:dealer" if t == DEALER else f"card:box {self.seats[t].number}"
        if phase == "dealer":
            return "card:dealer"
        if phase == "betting":
            return "bet"
        if phase == "insurance":
            return "insurance"
        return None

    def legal_actions(self) -> frozenset[str]:
        """The action kinds legal now: ``bet``, ``close-bets``, ``card``, ``stand``,
        ``double``, ``split``, ``insure``, ``even-money``, ``insurance-closed``."""
        phase = self.phase
        if phase == "players":
            if self._need == "card":
                return _K_CARD
            box = self.seats[self._tb]
            hand = box.hands[self._th]
            kinds = {"stand"}
            if self._can_hit(hand):
                kinds.add("card")
            if self._double_refusal(box, hand) is None:
                kinds.add("double")
            if self._split_refusal(box, hand) is None:
                kinds.add("split")
            return frozenset(kinds)
        if phase in ("dealing", "dealer"):
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

    @classmethod
    def replay(
        cls,
        rules: Rules | str | dict,
        limits: Limits | dict | None,
        actions: Iterable[Action | dict | str],
        boxes: Iterable[int] = range(1, 8),
        shoe: Shoe | None = None,
    ) -> Round:
        """A fresh round with the actions applied in order (dicts and script words accepted)."""
        from .actions import parse_action

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
        amount = to_amount(a.amount, "bet")
        if amount < 0:
            raise _illegal(
                f"A bet cannot be negative ({amount})", code="bad_amount", amount=str(amount)
            )
        if amount == 0:
            self.bets.pop(box, None)
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
        card = a.card
        phase = self.phase
        if phase == "players":
            box = self.seats[self._tb]
            hand = box.hands[self._th]
            if self._need == "decision" and not self._can_hit(hand):
                raise _illegal(
                    f"Box {box.number} hand {self._th + 1}: no more cards on split aces",
                    code="hit_not_allowed",
                    box=box.number,
                    hand=self._th + 1,
                )
            self.shoe.take(card)  # checks before it changes anything
            self._card_to_hand(box, hand, card, events)
        elif phase == "dealing":
            self.shoe.take(card)  # checks before it changes anything
            t = self._plan[self._plan_pos]
            self._plan_pos += 1
            if t == DEALER:
                self._add_dealer(card)
                total, soft = self.dealer_total
                events.append(
                    {
                        "kind": "card",
                        "to": "dealer",
                        "card": card.code,
                        "total": total,
                        "soft": soft,
                        "hole": len(self.dealer) == 2 and self.rules.dealer_cards == "hole",
                    }
                )
            else:
                box = self.seats[t]
                hand = box.hands[0]
                hand.add(card)
                if hand.hard == 11 and hand.aces == 1 and len(hand.cards) == 2:
                    hand.natural = True
                events.append(
                    {
                        "kind": "card",
                        "to": "box",
                        "box": box.number,
                        "hand": 1,
                        "card": card.code,
                        "total": hand.total,
                        "soft": hand.soft,
                    }
                )
            if self._plan_pos == len(self._plan):
                self._after_deal(events)
        elif phase == "dealer":
            self.shoe.take(card)  # checks before it changes anything
            self._dealer_card(card, events)
        else:
            raise _illegal(self._no_card_message(), code="illegal_action")

    def _no_card_message(self) -> str:
        if self.phase == "betting":
            return "No card yet: bets are not closed"
        if self.phase == "insurance":
            return "No card now: insurance is open (close it with insurance-closed)"
        return "No card is due now"

    def _card_to_hand(self, box: Box, hand: Hand, card: Card, events: list) -> None:
        hand.add(card)
        bn, hn = box.number, self._th + 1
        total = hand.total
        events.append(
            {
                "kind": "card",
                "to": "box",
                "box": bn,
                "hand": hn,
                "card": card.code,
                "total": total,
                "soft": hand.soft,
            }
        )
        rules = self.rules
        if hand.hard > 21:
            hand.settle("lose", -hand.bet)
            events.append(
                {"kind": "bust", "box": bn, "hand": hn, "total": total, "net": str(hand.net)}
            )
            self._advance(events)
            return
        cards = hand.cards
        if (
            rules.three_sevens
            and len(cards) == 3
            and cards[0].rank == "7"
            and cards[1].rank == "7"
            and cards[2].rank == "7"
        ):
            suited = cards[0].suit is not None and cards[0].suit == cards[1].suit == cards[2].suit
            net = hand.bet * (FIVE if suited else THREE)
            hand.settle("win", net)
            box.bonuses.append(
                {
                    "kind": "three_sevens",
                    "hand": hn,
                    "suited": suited,
                    "pays": "5:1" if suited else "3:1",
                    "amount": str(net),
                }
            )
            events.append(
                {"kind": "three_sevens", "box": bn, "hand": hn, "suited": suited, "net": str(net)}
            )
            self._advance(events)
            return
        if hand.doubled or total == 21:
            hand.done = True
            self._advance(events)
            return
        if len(cards) == 2 and hand.split_aces and not rules.hit_split_aces:
            # One card on a split ace; another ace may be split again.
            if card.value == 1 and self._split_refusal(box, hand) is None:
                self._need = "decision"
            else:
                hand.done = True
                self._advance(events)
            return
        self._need = "decision"

    def _can_hit(self, hand: Hand) -> bool:
        return hand.hard < 21 and not (
            hand.split_aces and not self.rules.hit_split_aces and len(hand.cards) >= 2
        )

    # the end of the initial deal

    def _after_deal(self, events: list) -> None:
        rules = self.rules
        up = self.dealer[0]
        family = rules.dealer_cards
        if family == "open":
            if self.dealer_blackjack:
                self._dealer_blackjack_now(events)
                return
            self._pay_blackjacks(events)
            self._start_players(events)
            return
        if up.value == 1 and self._offer_insurance():
            self.phase = "insurance"
            self.insurance_offered = True
            events.append(
                {
                    "kind": "insurance_open",
                    "boxes": [b.number for b in self.seats if self._insure_refusal(b) is None],
                    "even_money": [
                        b.number for b in self.seats if self._even_money_refusal(b) is None
                    ],
                }
            )
            if family == "one":
                # Blackjacks against the ace are noted now; even money may still be taken.
                for b in self.seats:
                    if b.hands[0].blackjack:
                        b.hands[0].done = True
                        events.append({"kind": "blackjack_noted", "box": b.number})
            return
        if family == "hole":
            self._peek(events)
            return
        self._one_card_blackjacks(events)
        self._start_players(events)

    def _one_card_blackjacks(self, events: list) -> None:
        up = self.dealer[0]
        for b in self.seats:
            h = b.hands[0]
            if h.blackjack and not h.done:
                h.done = True
                if up.value in (1, 10):
                    events.append({"kind": "blackjack_noted", "box": b.number})
                else:
                    self._pay_blackjack(b, h, events)

    def _offer_insurance(self) -> bool:
        rules = self.rules
        if rules.insurance:
            return True
        return rules.even_money and any(b.hands[0].blackjack for b in self.seats)

    def _pay_blackjack(self, box: Box, hand: Hand, events: list) -> None:
        net = hand.bet * self.rules.bj_ratio
        hand.settle("win", net)
        events.append({"kind": "blackjack_paid", "box": box.number, "hand": 1, "net": str(net)})

    def _pay_blackjacks(self, events: list) -> None:
        for b in self.seats:
            h = b.hands[0]
            if h.blackjack and not h.settled:
                self._pay_blackjack(b, h, events)

    def _peek(self, events: list) -> None:
        up = self.dealer[0]
        if up.value in (1, 10):
            bj = self.dealer_blackjack
            events.append({"kind": "peek", "blackjack": bj})
            if bj:
                self._dealer_blackjack_now(events)
                return
        self._settle_insurance(False, events)
        self._pay_blackjacks(events)
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
        return None

    def _even_money_refusal(self, box: Box) -> str | None:
        if not self.rules.even_money:
            return "Even money is not offered at this table"
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
        amount = to_amount(a.amount, "insurance")
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
        box.insurance = amount
        events.append({"kind": "insurance", "box": box.number, "amount": str(amount)})

    def _on_even_money(self, a: EvenMoney, events: list) -> None:
        box = self._insurance_box(a.box, "Even money")
        why = self._even_money_refusal(box)
        if why is not None:
            raise _illegal(why, code="even_money_not_allowed", box=box.number)
        box.even_money = True
        hand = box.hands[0]
        hand.settle("win", hand.bet)
        events.append({"kind": "even_money", "box": box.number, "net": str(hand.bet)})

    def _on_insurance_closed(self, a: InsuranceClosed, events: list) -> None:
        if self.phase != "insurance":
            raise _illegal("Insurance is not open", code="insurance_closed")
        events.append({"kind": "insurance_closed"})
        if self.rules.dealer_cards == "hole":
            self._peek(events)
            return
        self._start_players(events)

    def _settle_insurance(self, dealer_bj: bool, events: list) -> None:
        for b in self.seats:
            if b.insurance is not None and b.insurance_net is None:
                b.insurance_net = b.insurance * TWO if dealer_bj else -b.insurance
                events.append(
                    {
                        "kind": "insurance_settled",
                        "box": b.number,
                        "bet": str(b.insurance),
                        "net": str(b.insurance_net),
                    }
                )

    # the players' turns

    def _start_players(self, events: list) -> None:
        self._tb = 0
        self._th = 0
        self._find_turn(events)

    def _advance(self, events: list) -> None:
        self._th += 1
        self._find_turn(events)

    def _find_turn(self, events: list) -> None:
        seats = self.seats
        tb, th = self._tb, self._th
        while tb < len(seats):
            hands = seats[tb].hands
            while th < len(hands):
                h = hands[th]
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

    def _double_refusal(self, box: Box, hand: Hand) -> str | None:
        rules = self.rules
        where = f"Box {box.number} hand {self._th + 1}"
        if len(hand.cards) != 2 or hand.doubled:
            return f"{where}: doubling is allowed only on the first two cards"
        if hand.split:
            if not rules.double_after_split:
                return f"{where}: no doubling after a split at this table"
            if hand.split_aces and not rules.hit_split_aces:
                return f"{where}: split aces take one card only"
        totals = rules.double_totals
        if totals is not None and (hand.soft or hand.total not in totals):
            return f"{where}: doubling is allowed only on {rules.double_on} (this is {hand.total})"
        return None

    def _split_refusal(self, box: Box, hand: Hand) -> str | None:
        where = f"Box {box.number} hand {self._th + 1}"
        cards = hand.cards
        if len(cards) != 2 or cards[0].value != cards[1].value:
            return f"{where}: only two cards of the same value can be split"
        rules = self.rules
        if len(box.hands) >= rules.max_hands:
            return f"{where}: at most {rules.max_hands} hands on a box"
        if hand.split_aces and not rules.resplit_aces:
            return f"{where}: split aces cannot be split again at this table"
        return None

    def _decision(self, what: str) -> tuple[Box, Hand]:
        if self.phase != "players" or self._need != "decision":
            raise _illegal(f"No {what} now: {self._no_decision()}", code="illegal_action")
        box = self.seats[self._tb]
        return box, box.hands[self._th]

    def _no_decision(self) -> str:
        if self.phase == "players":
            return f"box {self.seats[self._tb].number} hand {self._th + 1} needs a card first"
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
        self._advance(events)

    def _on_double(self, a: Double, events: list) -> None:
        box, hand = self._decision("double")
        why = self._double_refusal(box, hand)
        if why is not None:
            raise _illegal(why, code="double_not_allowed", box=box.number, hand=self._th + 1)
        hand.bet = hand.bet * TWO
        hand.doubled = True
        self._need = "card"
        events.append(
            {"kind": "double", "box": box.number, "hand": self._th + 1, "bet": str(hand.bet)}
        )

    def _on_split(self, a: Split, events: list) -> None:
        box, hand = self._decision("split")
        why = self._split_refusal(box, hand)
        if why is not None:
            raise _illegal(why, code="split_not_allowed", box=box.number, hand=self._th + 1)
        first, second = hand.cards
        aces = first.value == 1
        new = Hand(box.bet, split=True, split_aces=aces)
        new.add(second)
        hand.cards = [first]
        hand.hard = first.value
        hand.aces = 1 if aces else 0
        hand.split = True
        hand.split_aces = aces
        box.hands.insert(self._th + 1, new)
        self._need = "card"
        events.append(
            {
                "kind": "split",
                "box": box.number,
                "hand": self._th + 1,
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
            self._settle(events)
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
        self._settle(events)

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

    def _dealer_card(self, card: Card, events: list) -> None:
        self._add_dealer(card)
        total, soft = self.dealer_total
        events.append(
            {
                "kind": "card",
                "to": "dealer",
                "card": card.code,
                "total": total,
                "soft": soft,
                "hole": False,
            }
        )
        if len(self.dealer) == 2 and self.rules.dealer_cards == "one":
            if self.dealer_blackjack:
                self._dealer_blackjack_now(events)
                return
            self._settle_insurance(False, events)
            self._pay_blackjacks(events)
        self._dealer_next(events)

    def _dealer_blackjack_now(self, events: list) -> None:
        """The dealer has Blackjack: insurance wins, Blackjacks tie (or win, 004), every other
        hand in play loses (in a one-card game, per ``dealer_blackjack_takes``)."""
        rules = self.rules
        events.append({"kind": "dealer_blackjack"})
        self._settle_insurance(True, events)
        original_only = rules.dealer_cards == "one" and rules.dealer_blackjack_takes == "original"
        for b in self.seats:
            cap = b.bet
            for i, h in enumerate(b.hands):
                if h.settled:
                    continue
                if h.blackjack:
                    if rules.blackjack_beats_dealer_blackjack:
                        h.settle("win", h.bet * rules.bj_ratio)
                    elif rules.ties == "push":
                        h.settle("push", ZERO)
                    else:
                        h.settle("lose", -h.bet)
                elif original_only:
                    loss = min(h.bet, cap)
                    cap -= loss
                    h.settle("lose" if loss else "push", -loss)
                else:
                    h.settle("lose", -h.bet)
                events.append(
                    {
                        "kind": "hand_settled",
                        "box": b.number,
                        "hand": i + 1,
                        "result": h.result,
                        "net": str(h.net),
                    }
                )
        self._finish(events)

    def _settle(self, events: list) -> None:
        dealer_total, _ = self.dealer_total
        bust = dealer_total > 21
        push_ties = self.rules.ties == "push"
        for b in self.seats:
            for i, h in enumerate(b.hands):
                if h.settled:
                    continue
                if h.blackjack:
                    # Only possible if the dealer never drew a second card (cannot happen: a
                    # waiting Blackjack makes him draw); pay it as a Blackjack to be safe.
                    h.settle("win", h.bet * self.rules.bj_ratio)
                else:
                    total = h.total
                    if bust or total > dealer_total:
                        h.settle("win", h.bet)
                    elif total == dealer_total and push_ties:
                        h.settle("push", ZERO)
                    else:
                        h.settle("lose", -h.bet)
                events.append(
                    {
                        "kind": "hand_settled",
                        "box": b.number,
                        "hand": i + 1,
                        "result": h.result,
                        "net": str(h.net),
                    }
                )
        self._settle_insurance(False, events)
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
        boxes = []
        for b in self.seats:
            hands = []
            for h in b.hands:
                hands.append(
                    {
                        "cards": [c.code for c in h.cards],
                        "total": h.total,
                        "soft": h.soft,
                        "blackjack": h.blackjack,
                        "bust": h.bust,
                        "bet": h.bet,
                        "doubled": h.doubled,
                        "result": h.result,
                        "net": h.net,
                    }
                )
            boxes.append(
                {
                    "box": b.number,
                    "bet": b.bet,
                    "insurance": None
                    if b.insurance is None
                    else {
                        "bet": b.insurance,
                        "net": b.insurance_net,
                    },
                    "even_money": b.even_money,
                    "bonuses": [{**x, "amount": Decimal(x["amount"])} for x in b.bonuses],
                    "hands": hands,
                    "net": b.net,
                }
            )
        out["boxes"] = boxes
        out["net"] = self.net
        return out

    # -- serialisation --------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The whole state, JSON-safe (Decimals as strings, cards as codes)."""
        return {
            "rules": self.rules.to_json(),
            "limits": None if self.limits is None else self.limits.to_dict(),
            "boxes": list(self.boxes),
            "shoe": self.shoe.to_dict(),
            "phase": self.phase,
            "bets": {str(k): str(v) for k, v in self.bets.items()},
            "seats": [b.to_dict() for b in self.seats],
            "dealer": [c.code for c in self.dealer],
            "plan": list(self._plan),
            "plan_pos": self._plan_pos,
            "turn": [self._tb, self._th],
            "need": self._need,
            "insurance_offered": self.insurance_offered,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Round:
        """Rebuild a round from ``to_dict``."""
        r = cls(
            Rules.from_json({"preset": "standard", **d["rules"]}),
            Limits.from_dict(d["limits"]),
            tuple(d["boxes"]),
            Shoe.from_dict(d["shoe"]),
        )
        r.phase = d["phase"]
        r.bets = {int(k): Decimal(v) for k, v in d["bets"].items()}
        r.seats = [Box.from_dict(b) for b in d["seats"]]
        for c in d["dealer"]:
            r._add_dealer(Card.parse(c))
        r._plan = list(d["plan"])
        r._plan_pos = d["plan_pos"]
        r._tb, r._th = d["turn"]
        r._need = d["need"]
        r.insurance_offered = d["insurance_offered"]
        return r

    def __eq__(self, other) -> bool:
        return isinstance(other, Round) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Round {self.phase} awaiting={self.awaiting()!r} net={self.net}>"


_HANDLERS = {
    Bet: Round._on_bet,
    CloseBets: Round._on_close_bets,
    Deal: Round._on_deal,
    Stand: Round._on_stand,
    Double: Round._on_double,
    Split: Round._on_split,
    Insure: Round._on_insure,
    EvenMoney: Round._on_even_money,
    InsuranceClosed: Round._on_insurance_closed,
}


_EVENT_ACTIONS = {
    "bets_closed": lambda e: CloseBets(),
    "card": lambda e: Deal(Card.parse(e["card"])),
    "stand": lambda e: Stand(),
    "double": lambda e: Double(),
    "split": lambda e: Split(),
    "insurance": lambda e: Insure(e["box"], Decimal(e["amount"])),
    "even_money": lambda e: EvenMoney(e["box"]),
    "insurance_closed": lambda e: InsuranceClosed(),
}


def actions_from_events(events: Iterable[dict]) -> list[Action]:
    """The actions that caused a sequence of events (every action's first event names it), so
    a round's event log can be replayed: ``Round.replay(rules, limits, actions_from_events(log))``.
    A ``bet`` event of amount 0 is the removal of a bet."""
    out: list[Action] = []
    for e in events:
        kind = e["kind"]
        if kind == "bet":
            out.append(Bet(e["box"], Decimal(e["amount"])))
        elif kind in _EVENT_ACTIONS:
            out.append(_EVENT_ACTIONS[kind](e))
    return out
