"""What a shoe's row says of the table's next round: pure, read by the commands and the
screens alike."""

from __future__ import annotations


def shoe_before_opening(shoe, table) -> bool:
    """A shoe shuffled before the table last opened belongs to an earlier opening: a
    re-opened table starts a new shoe (its cards went back to the cage at closing)."""
    opened = getattr(table, "opened_at", None)
    return opened is not None and shoe.shuffled_at < opened


def shoe_used(shoe) -> bool:
    """Whether a card other than the burnt one has left the shoe: at a table that shuffles
    before every round (``shuffle_every_round``, docs/sources.md#shuffle-when) such a shoe
    needs a shuffle before the next round."""
    return shoe.dealt > (1 if shoe.burn_card else 0)
