"""Cards, hand totals and the shoe.

Notation: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is read as ``T``) followed by a suit
``s h d c``. A rank without a suit is a card from a table that does not record suits: it counts
against its rank in the shoe, and a suited bonus cannot apply to it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import CardError, ShoeError

RANKS = "A23456789TJQK"
SUITS = "shdc"
RANK_VALUES = {r: (1 if r == "A" else 10 if r in "TJQK" else int(r)) for r in RANKS}
TEN_RANKS = frozenset("TJQK")


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``suit`` is ``None`` when the table does not record suits.

    ``value`` is the count of the card with an ace as 1; ``hand_total`` decides whether an ace
    counts 11. Instances are interned: ``Card.parse`` always returns the same object for the
    same code, so ``is`` comparisons are safe inside the engine.
    """

    rank: str
    suit: str | None = None
    value: int = field(init=False, compare=False, repr=False)
    # Positions in the shoe's count tables (suited: 0-51, rank-only: -1; rank: 0-12).
    index: int = field(init=False, compare=False, repr=False)
    rank_index: int = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)
    #: The card in notation: ``"Th"``, or ``"T"`` without a suit.
    code: str = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        if self.rank not in RANK_VALUES:
            raise CardError(f"Unknown card rank {self.rank!r}", card=str(self.rank))
        if self.suit is not None and (len(self.suit) != 1 or self.suit not in SUITS):
            raise CardError(f"Unknown card suit {self.suit!r}", card=str(self.suit))
        object.__setattr__(self, "value", RANK_VALUES[self.rank])
        ri = RANKS.index(self.rank)
        object.__setattr__(self, "rank_index", ri)
        object.__setattr__(
            self, "index", -1 if self.suit is None else ri * 4 + SUITS.index(self.suit)
        )
        object.__setattr__(self, "_hash", hash((self.rank, self.suit)))
        object.__setattr__(self, "code", self.rank + (self.suit or ""))

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"

    @property
    def is_ten(self) -> bool:
        """True for any ten-value card (T, J, Q, K)."""
        return self.value == 10

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read a card code (``"Th"``, ``"10h"``, ``"th"``, ``"T"``); raise ``CardError``."""
        if isinstance(text, Card):
            return text
        card = _CARDS.get(text)
        if card is not None:
            return card
        if not isinstance(text, str):
            raise CardError(f"Not a card: {text!r}", card=repr(text))
        raw = text.strip()
        if raw[:2] == "10":
            rank, suit = "T", raw[2:]
        else:
            rank, suit = raw[:1].upper(), raw[1:]
        suit = suit.lower()
        if rank not in RANK_VALUES or (suit and suit not in SUITS) or len(suit) > 1:
            raise CardError(
                f"Not a card: {text!r} (expected rank A 2-9 T J Q K and suit s h d c, e.g. Th)",
                card=text,
            )
        return _CARDS[rank + suit]


_CARDS: dict[str, Card] = {}
for _r in RANKS:
    _CARDS[_r] = Card(_r)
    for _s in SUITS:
        _CARDS[_r + _s] = Card(_r, _s)
ALL_SUITED = tuple(_CARDS[r + s] for r in RANKS for s in SUITS)


def hand_total(cards: Iterable[Card | str]) -> tuple[int, bool]:
    """Best total of the cards not over 21 if possible, and whether it is soft.

    Aces count 1; one ace counts 11 when that keeps the total at 21 or less (two aces as 11
    would already be 22). A-A-A-6 is soft 19, 5-A-A-5 is hard 12. Cards may be given as codes.
    """
    hard = 0
    ace = False
    for card in cards:
        if not isinstance(card, Card):
            card = Card.parse(card)
        hard += card.value
        if card.value == 1:
            ace = True
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


def is_blackjack(cards: list[Card]) -> bool:
    """An ace and a ten-value card as exactly two cards (whether it counts is the hand's matter)."""
    return len(cards) == 2 and {cards[0].value, cards[1].value} == {1, 10}


class ShoeState:
    """What is left in a shoe of N decks.

    ``take(card)`` removes a card and refuses one the shoe cannot hold (every copy already out).
    A suited card counts against its rank and suit; a rank-only card against its rank.

    A *virtual* shoe (``ShoeState.shuffled``) also has an order: ``next_card()`` shows the next card
    out of a seeded shuffle and ``take`` removes it, so a round that deals ``next_card()`` keeps
    the shoe in step. The shuffle is lazy (each position is drawn when first needed), which
    makes a reshuffle cheap for the simulator.
    """

    __slots__ = (
        "decks",
        "_suited",
        "_ranks",
        "dealt",
        "_order",
        "_pos",
        "_fixed",
        "_rng",
        "seed",
        "shuffles",
        "cut",
    )

    def __init__(self, decks: int = 6):
        if not isinstance(decks, int) or isinstance(decks, bool) or not 1 <= decks <= 8:
            raise CardError(f"A shoe holds 1 to 8 decks, not {decks!r}", decks=repr(decks))
        self.decks = decks
        self._suited = [decks] * 52  # by Card.index
        self._ranks = [4 * decks] * 13  # by Card.rank_index
        self.dealt = 0
        self._order: list[Card] | None = None
        self._pos = 0
        self._fixed = 0
        self._rng: random.Random | None = None
        self.seed = None
        self.shuffles = 0
        self.cut = 0

    # -- counting -------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return 52 * self.decks

    @property
    def remaining(self) -> int:
        """Number of cards still in the shoe."""
        return self.size - self.dealt

    def remaining_of(self, rank: str, suit: str | None = None) -> int:
        """How many cards of this rank (and suit) the shoe can still give."""
        if suit is None:
            return self._ranks[RANKS.index(rank)]
        card = _CARDS[rank + suit]
        return min(self._suited[card.index], self._ranks[card.rank_index])

    def can_hold(self, card: Card) -> bool:
        """Whether the shoe still has a copy of this card to give."""
        if self._ranks[card.rank_index] <= 0:
            return False
        return card.index < 0 or self._suited[card.index] > 0

    def take(self, card: Card) -> None:
        """Remove the card from the shoe; raise ``ShoeError`` if no copy of it is left."""
        order = self._order
        if order is not None and self._pos < self._fixed and order[self._pos] is card:
            self._pos += 1
        else:
            if not self.can_hold(card):
                raise ShoeError(
                    f"The shoe cannot hold another {card.code}: all {self._copies(card)} "
                    f"cop{'y' if self._copies(card) == 1 else 'ies'} of it in {self.decks} "
                    f"deck{'s' if self.decks > 1 else ''} are already out",
                    card=card.code,
                    decks=self.decks,
                )
            if order is not None:
                card = self._take_from_order(card)
        self._ranks[card.rank_index] -= 1
        if card.index >= 0:
            self._suited[card.index] -= 1
        self.dealt += 1

    def _copies(self, card: Card) -> int:
        return self.decks if card.suit else 4 * self.decks

    # -- the virtual, seeded shoe ---------------------------------------------------------

    @classmethod
    def shuffled(cls, decks: int = 6, seed: int | str = 0, penetration: float = 0.75) -> ShoeState:
        """A virtual shoe in a seeded random order, with a cut card after ``penetration``."""
        shoe = cls(decks)
        shoe.seed = seed
        shoe.cut = int(shoe.size * penetration)
        shoe._order = [c for c in ALL_SUITED for _ in range(decks)]
        shoe._rng = random.Random(f"{seed}")
        return shoe

    @property
    def virtual(self) -> bool:
        return self._order is not None

    @property
    def cut_card_out(self) -> bool:
        """A virtual shoe has reached its cut card: shuffle before the next round."""
        return self._order is not None and self.dealt >= self.cut

    def next_card(self) -> Card:
        """The next card out of a virtual shoe (not removed until ``take``)."""
        order = self._order
        if order is None:
            raise CardError("This shoe has no order: cards are entered at the table")
        pos = self._pos
        if pos >= self._fixed:
            n = len(order)
            if pos >= n:
                raise ShoeError("The shoe is empty", card=None, decks=self.decks)
            j = pos + int(self._rng.random() * (n - pos))
            order[pos], order[j] = order[j], order[pos]
            self._fixed = pos + 1
        return order[pos]

    def draw(self) -> Card:
        """Take the next card out of a virtual shoe and return it."""
        card = self.next_card()
        self.take(card)
        return card

    def reshuffle(self) -> None:
        """Put every card back and shuffle (a virtual shoe keeps its seed sequence)."""
        self._suited = [self.decks] * 52
        self._ranks = [4 * self.decks] * 13
        self.dealt = 0
        self._pos = 0
        self._fixed = 0
        self.shuffles += 1

    def _take_from_order(self, card: Card) -> Card:
        # A card entered by hand out of a virtual shoe: move the first matching undealt card to
        # the current position so that the order stays a permutation of what is left. A
        # rank-only card takes the first undealt card of its rank, suit and all.
        order = self._order
        pos = self._pos
        for j in range(pos, len(order)):
            c = order[j]
            if c is card or (card.suit is None and c.rank == card.rank):
                order[pos], order[j] = order[j], order[pos]
                card = c
                break
        self._pos = pos + 1
        if self._fixed < self._pos:
            self._fixed = self._pos
        return card

    # -- serialisation --------------------------------------------------------------------

    def position(self) -> dict:
        """What dealing a card changes, JSON-safe: the counts of what is out and, for a
        virtual shoe, its order, the place in it and the generator of the rest of the
        shuffle (``set_position`` puts them back; the seed, the cut and the count of
        shuffles are not moved by a card)."""
        d = {
            "dealt": self.dealt,
            "out": {
                c.code: self.decks - n
                for c, n in zip(ALL_SUITED, self._suited, strict=True)
                if n != self.decks
            },
            "out_ranks": {
                r: 4 * self.decks - n
                for r, n in zip(RANKS, self._ranks, strict=True)
                if n != 4 * self.decks
            },
        }
        if self._order is not None:
            state = self._rng.getstate()
            d["order"] = [c.code for c in self._order]
            d["pos"] = self._pos
            d["fixed"] = self._fixed
            d["rng"] = [state[0], list(state[1]), state[2]]
        return d

    def set_position(self, d: dict) -> None:
        """Put the shoe back where ``position()`` found it, in place (a round's shoe is
        shared: ``RoundState.pop`` moves it back under everyone who holds it)."""
        suited = [self.decks] * 52
        ranks = [4 * self.decks] * 13
        for code, n in d.get("out", {}).items():
            suited[Card.parse(code).index] -= n
        for rank, n in d.get("out_ranks", {}).items():
            ranks[RANKS.index(rank)] -= n
        self._suited, self._ranks = suited, ranks
        self.dealt = d.get("dealt", 0)
        if "order" in d:
            self._order = [Card.parse(c) for c in d["order"]]
            self._pos = d["pos"]
            self._fixed = d["fixed"]
            rng = random.Random()
            s = d["rng"]
            rng.setstate((s[0], tuple(s[1]), s[2]))
            self._rng = rng

    def to_dict(self) -> dict:
        """JSON-safe state: counts of what is out (and a virtual shoe's order and generator)."""
        position = self.position()
        d = {"decks": self.decks}
        d.update((k, position[k]) for k in ("dealt", "out", "out_ranks"))
        if self._order is not None:
            d["virtual"] = {
                "seed": self.seed,
                "cut": self.cut,
                "shuffles": self.shuffles,
                **{k: position[k] for k in ("order", "pos", "fixed", "rng")},
            }
        return d

    @classmethod
    def from_dict(cls, d: dict) -> ShoeState:
        """Rebuild a shoe from ``to_dict``."""
        shoe = cls(d["decks"])
        v = d.get("virtual")
        shoe.set_position(d if v is None else {**d, **v})
        if v is not None:
            shoe.seed = v["seed"]
            shoe.cut = v["cut"]
            shoe.shuffles = v["shuffles"]
        return shoe

    def __eq__(self, other) -> bool:
        return isinstance(other, ShoeState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<ShoeState {self.decks} decks, {self.remaining} left>"
