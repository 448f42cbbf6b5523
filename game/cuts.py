"""Where the cut card may go (document 000, docs/sources.md): ¼ to ⅓ of the pack behind it."""

import math


def cut_limits(decks: int) -> tuple[int, int]:
    """Cards the cut card may leave behind it: 1/4 to 1/3 of the pack (documents 000, 002)."""
    size = decks * 52
    return math.ceil(size / 4), size // 3
