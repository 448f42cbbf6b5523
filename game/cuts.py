"""Where the cut card may go (docs/sources.md#cut-card-position): ¼ to ⅓ of the pack behind it."""

import math


def cut_limits(decks: int) -> tuple[int, int]:
    """Cards the cut card may leave behind it: 1/4 to 1/3 of the pack
    (docs/sources.md#cut-card-position)."""
    size = decks * 52
    return math.ceil(size / 4), size // 3


def cut_card_early(*, dealt: int, size: int, behind: int | None) -> bool:
    """Whether "the cut card came out" after ``dealt`` of ``size`` cards is too early for a
    cut card that left ``behind`` cards behind it: more than a quarter of the pack before
    its place is most likely a slip of the finger (or a shoe not loaded as recorded), and
    the tablet asks first (18 % of a six-deck shoe is; 60 % is not)."""
    if not behind or not size:
        return False
    return dealt < size - behind - size // 4
