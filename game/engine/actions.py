"""What a croupier can do at a round: small frozen values, their dict form and the script words.

Script words (the CLI form): a card code (``Th``) deals the next card out of the shoe;
``card-down`` deals it face down (``player_cards: face-down``, entered when it is turned);
``stand``, ``double``, ``split``, ``insure <box> <amount>``, ``even-money <box>``,
``insurance-closed``; and for completeness ``bet <box> <amount>`` and ``close-bets``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from .cards import Card
from .errors import ActionError, CardError

# The engine's own spelling of an amount (``action_to_dict``, snapshots, scenario files):
# ASCII digits, at most two decimals. What a person types is read by the application's one
# parser (``floor.parsing``) before it reaches the engine; the engine only checks types.
_SPELLING = re.compile(r"-?\d{1,15}(?:\.\d{1,2})?", re.ASCII)
LARGEST = Decimal(10) ** 15  # beyond any table's amount: refused before any arithmetic


def to_amount(value, what: str = "amount") -> Decimal:
    """A money amount as ``Decimal``: a finite ``Decimal`` or an ``int`` below ``LARGEST``,
    or the engine's own spelling of one (``"500"``, ``"22.50"``). Anything else — a float
    (it cannot hold chips exactly), ``"1e3"``, ``"１００"``, ``" 5"`` — is refused
    (``bad_amount``)."""
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, int) and not isinstance(value, bool):
        amount = Decimal(value) if abs(value) < LARGEST else None
    elif isinstance(value, str) and _SPELLING.fullmatch(value):
        amount = Decimal(value)
    else:
        amount = None
    if amount is None or not amount.is_finite() or abs(amount) >= LARGEST:
        raise ActionError(
            f"The {what} must be an exact amount (a Decimal, an integer or digits with at "
            f"most two decimals), not {_short(value)}",
            code="bad_amount",
            amount=_short(value),
        )
    return amount


def _short(value) -> str:
    """A value in a message, bounded (``repr`` of a huge number would be its every digit)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= LARGEST:
        return "(too large)"
    text = repr(value)
    return text if len(text) <= 24 else text[:23] + "…"


CENT = Decimal("0.01")


def to_chips(value, what: str = "amount") -> Decimal:
    """A money amount that chips can make: exact (``to_amount``) and a whole number of cents.

    Every amount put on the table (a bet, an insurance, a limit) is in whole cents, so the
    bounds a ``Move`` gives are exact: the smallest amount is 0.01 and nothing lies between.
    """
    amount = to_amount(value, what)
    try:
        whole = amount == amount.quantize(CENT)
    except ArithmeticError:  # more digits than decimal arithmetic holds: no table's amount
        whole = False
    if not whole:
        raise ActionError(
            f"The {what} must be a whole number of cents (0.01), not {amount}",
            code="bad_amount",
            amount=str(amount)[:24],
        )
    return amount


@dataclass(frozen=True, slots=True)
class Bet:
    """Chips on a box during betting. A new Bet on the same box replaces it; 0 removes it."""

    box: int
    amount: Decimal
    kind = "bet"


@dataclass(frozen=True, slots=True)
class CloseBets:
    """ "Thank you, bets are placed": ends betting (at least one bet needed), dealing starts."""

    kind = "close-bets"


@dataclass(frozen=True, slots=True)
class Deal:
    """The next card out of the shoe, placed where the house order puts it.

    During the initial deal it goes box by box, to the dealer, box by box again (and, with a
    hole card or open cards, the dealer's second card last); during the players' turn it goes
    to the hand whose turn it is (a hit, a double's card, a split hand's second card); during
    the dealer's turn, to the dealer.
    """

    card: Card
    kind = "card"

    def __post_init__(self):
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", Card.parse(self.card))


@dataclass(frozen=True, slots=True)
class DealDown:
    """``player_cards: face-down``: the next card of the initial deal goes face down to the box
    whose card is due; nobody knows it yet, and it is entered (a ``Deal``) when it is turned,
    at the box's turn (docs/sources.md#players-cards-face-down). Script word ``card-down``."""

    kind = "card-down"


@dataclass(frozen=True, slots=True)
class Stand:
    """The hand whose turn it is takes no more cards."""

    kind = "stand"


@dataclass(frozen=True, slots=True)
class Double:
    """Double the bet of the hand whose turn it is; it takes exactly one more card."""

    kind = "double"


@dataclass(frozen=True, slots=True)
class Split:
    """Split the pair of the hand whose turn it is into two hands, each with the box's bet."""

    kind = "split"


@dataclass(frozen=True, slots=True)
class Insure:
    """Insurance on a box (up to half its bet), during the insurance phase."""

    box: int
    amount: Decimal
    kind = "insure"


@dataclass(frozen=True, slots=True)
class EvenMoney:
    """A box with Blackjack against a dealer ace takes even money (1:1 at once)."""

    box: int
    kind = "even-money"


@dataclass(frozen=True, slots=True)
class InsuranceClosed:
    """Ends the insurance phase."""

    kind = "insurance-closed"


Action = (
    Bet
    | CloseBets
    | Deal
    | DealDown
    | Stand
    | Double
    | Split
    | Insure
    | EvenMoney
    | InsuranceClosed
)

# Interned instances for the hot path (the simulator deals millions of cards).
STAND = Stand()
DOUBLE = Double()
SPLIT = Split()
CLOSE_BETS = CloseBets()
INSURANCE_CLOSED = InsuranceClosed()
DEAL_DOWN = DealDown()
DEALS: dict[Card, Deal] = {}


def deal(card: Card | str) -> Deal:
    """The interned ``Deal`` of a card."""
    card = Card.parse(card)
    d = DEALS.get(card)
    if d is None:
        d = DEALS[card] = Deal(card)
    return d


_SIMPLE = {
    "stand": STAND,
    "double": DOUBLE,
    "split": SPLIT,
    "close-bets": CLOSE_BETS,
    "insurance-closed": INSURANCE_CLOSED,
    "card-down": DEAL_DOWN,
}


def action_to_dict(action: Action) -> dict:
    """JSON-safe dict: ``{"kind": ..., <fields>}``; amounts as strings, cards as codes."""
    kind = action.kind
    if kind == "card":
        return {"kind": kind, "card": action.card.code}
    if kind in ("bet", "insure"):
        return {"kind": kind, "box": action.box, "amount": str(action.amount)}
    if kind == "even-money":
        return {"kind": kind, "box": action.box}
    return {"kind": kind}


def action_from_dict(d: dict) -> Action:
    """The inverse of ``action_to_dict``; raises ``ActionError`` (code ``bad_action``)."""
    if not isinstance(d, dict):
        raise ActionError(f"Not an action: {d!r}", code="bad_action", action=repr(d))
    kind = d.get("kind")
    try:
        if kind == "card":
            return deal(d["card"])
        if kind == "bet":
            return Bet(_box(d["box"]), to_amount(d["amount"], "bet"))
        if kind == "insure":
            return Insure(_box(d["box"]), to_amount(d["amount"], "insurance"))
        if kind == "even-money":
            return EvenMoney(_box(d["box"]))
    except KeyError as e:
        raise ActionError(
            f"The {kind} action lacks {e.args[0]!r}", code="bad_action", action=repr(d)
        )
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    raise ActionError(f"Unknown action {kind!r}", code="bad_action", action=repr(d))


def _box(value) -> int:
    """A box number: an int, or up to three ASCII digits (a script word); not ``" 3"``,
    ``"+3"`` or ``"٣"``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and len(value) <= 3 and value.isascii() and value.isdigit():
        return int(value)
    raise ActionError(f"Not a box number: {_short(value)}", code="bad_action", box=_short(value))


def parse_action(token: str) -> Action:
    """Read one script word (``"Th"``, ``"stand"``, ``"insure 3 50"``, ...)."""
    if isinstance(token, dict):
        return action_from_dict(token)
    if not isinstance(token, str):
        raise ActionError(f"Not a script item: {token!r}", code="bad_action", token=repr(token))
    words = token.split()
    if not words:
        raise ActionError("An empty script item", code="bad_action", token=token)
    head = words[0].lower()
    if head in _SIMPLE and len(words) == 1:
        return _SIMPLE[head]
    if head in ("insure", "bet"):
        if len(words) != 3:
            raise ActionError(
                f"Expected '{head} <box> <amount>', got {token!r}", code="bad_action", token=token
            )
        cls = Insure if head == "insure" else Bet
        return cls(_box(words[1]), to_amount(words[2], "insurance" if head == "insure" else "bet"))
    if head == "hit":
        raise ActionError(
            "There is no 'hit' word: a hit is simply the next card (e.g. Th)",
            code="bad_action",
            token=token,
        )
    if head == "even-money":
        if len(words) != 2:
            raise ActionError(
                f"Expected 'even-money <box>', got {token!r}", code="bad_action", token=token
            )
        return EvenMoney(_box(words[1]))
    if len(words) == 1 and len(token.strip()) <= 3:
        try:
            return deal(words[0])
        except CardError as e:
            raise CardError(
                f"Neither a card nor an action: {token!r} (cards look like Th, 10h, As; "
                "actions are stand, double, split, insure <box> <amount>, even-money <box>, "
                "insurance-closed)",
                token=token,
            ) from e
    raise ActionError(f"Unknown action {token!r}", code="bad_action", token=token)


def action_to_token(action: Action) -> str:
    """The script word of an action."""
    kind = action.kind
    if kind == "card":
        return action.card.code
    if kind in ("bet", "insure"):
        return f"{kind} {action.box} {action.amount}"
    if kind == "even-money":
        return f"even-money {action.box}"
    return kind
