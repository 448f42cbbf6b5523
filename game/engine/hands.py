"""What a round is played with: the table's limits, the boxes and their hands.

Plain values with their JSON form; the rules of play are in ``round.py`` and the payouts in
``settlement.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .actions import to_chips
from .cards import Card
from .errors import EngineError

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Limits:
    """A table's minimum and maximum bet per box (whole cents)."""

    min: Decimal
    max: Decimal

    def __post_init__(self):
        lo = to_chips(self.min, "minimum bet")
        hi = to_chips(self.max, "maximum bet")
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
    (a bust, a Blackjack paid at once, even money, three sevens, a split Blackjack won at once,
    or the settlement).
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
        "down",
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
        # ``player_cards: face-down``: cards of the deal lying face down, not yet entered.
        self.down = 0

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
    def two_card_21(self) -> bool:
        """An ace and a ten as the hand's only cards (a Blackjack, or 21 on a split hand)."""
        return len(self.cards) == 2 and self.hard == 11 and self.aces == 1

    @property
    def pair(self) -> bool:
        """Two cards of the same value (a queen and a jack too): a hand that may be split."""
        cards = self.cards
        return len(cards) == 2 and cards[0].value == cards[1].value

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
            **({"down": self.down} if self.down else {}),
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
        h.down = d.get("down", 0)
        h.natural = not h.split and not h.down and h.two_card_21
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

    def result(self) -> dict:
        """The box as the CLI prints it (amounts as ``Decimal``)."""
        return {
            "box": self.number,
            "bet": self.bet,
            "insurance": None
            if self.insurance is None
            else {"bet": self.insurance, "net": self.insurance_net},
            "even_money": self.even_money,
            "bonuses": [{**x, "amount": Decimal(x["amount"])} for x in self.bonuses],
            "hands": [
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
                    **({"face_down": h.down} if h.down else {}),
                }
                for h in self.hands
            ],
            "net": self.net,
        }
