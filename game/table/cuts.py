"""Where the cut card may go (docs/sources.md#cut-card-position): by the rule set's
``cut_card`` — ¼ to ⅓ of the pack behind it, near the end with up to fifty cards behind it
(the hole-card game), or so that 200 to 220 of 312 cards are played (002's figure)."""

import math

# docs/sources.md#cut-card-position: «ближе к концу, отделяя некоторое количество карт
# (до пятидесяти)».
NEAR_END_MOST = 50
# The hole-card document gives no least number: a house decision (docs/engine.md, "Table
# procedures") — half a deck, so that the round in which the cut card comes out can still be
# finished from the shoe.
NEAR_END_LEAST = 26
# docs/sources.md#cut-card-position: «игра фактически ведётся не на 312 картах, а на 200-220»
# (002): the cards played before the cut card, of a six-deck pack; other packs in proportion.
IN_PLAY_LEAST, IN_PLAY_MOST, IN_PLAY_OF = 200, 220, 312


def cut_limits(decks: int, cut_card: str = "quarter-third") -> tuple[int, int]:
    """Cards the cut card may leave behind it (docs/sources.md#cut-card-position): 1/4 to 1/3
    of the pack (``quarter-third``), 26 to 50 cards (``near-end``; never more than half of
    a small pack), or the pack less 200 to 220 of every 312 cards (``in-play-200-220``: 92 to
    112 of six decks)."""
    size = decks * 52
    if cut_card == "in-play-200-220":
        # Cards behind = the pack less the cards played: 92 to 112 of 312.
        most_played = size * IN_PLAY_MOST // IN_PLAY_OF
        least_played = -(-size * IN_PLAY_LEAST // IN_PLAY_OF)
        return size - most_played, size - least_played
    if cut_card == "near-end":
        high = min(NEAR_END_MOST, size // 2)
        return min(NEAR_END_LEAST, high), high
    return math.ceil(size / 4), size // 3


def cut_card_early(*, dealt: int, size: int, behind: int | None) -> bool:
    """Whether "the cut card came out" after ``dealt`` of ``size`` cards is too early for a
    cut card that left ``behind`` cards behind it: more than a quarter of the pack before
    its place is most likely a slip of the finger (or a shoe not loaded as recorded), and
    the tablet asks first (18 % of a six-deck shoe is; 60 % is not)."""
    if not behind or not size:
        return False
    return dealt < size - behind - size // 4
