"""One table as its screens show it, read in one go by ``game.selectors`` (or built by the
replay) and turned into a view by ``game.screens.presenters``."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine import Rules


@dataclass
class TableSnapshot:
    """One table as its screens show it, read in one go (``game.selectors``)."""

    table: object  # tables.Table
    rules: Rules
    version: int  # the round's version: what a command's expected_version must match
    seq: int  # the screen sequence: orders the fragments a screen receives
    shoe: object | None = None  # game.Shoe
    round: object | None = None  # game.Round (number, pk, snapshot)
    board: dict = field(default_factory=dict)
