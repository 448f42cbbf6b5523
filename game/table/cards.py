"""A card as people write it (the screens, the round log, the refusals' words): pure."""

from __future__ import annotations

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_LABELS = {"T": "10"}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def card_name(code) -> str:
    """A card as people write it: ``Ad`` → ``A♦``, ``Th`` → ``10♥``, ``7`` → ``7`` (a table
    that records no suits); anything else is returned as it came."""
    text = str(code or "")
    if not text or text[0] not in RANKS or len(text) > 2:
        return text
    suit = text[1:]
    if suit and suit not in SUIT_SYMBOLS:
        return text
    return RANK_LABELS.get(text[0], text[0]) + SUIT_SYMBOLS.get(suit, "")
