"""The cash report's columns: one list, read by the screen, the print view, CSV and XLSX, so
every form of the report has the same columns in the same order.

On screen (and on paper) the 17 figures of a line are two tables of the same lines, each
fitting a 1280 px screen: the win with what reconciles it, then the play. The exports put
both groups on one row, in that order.
"""

from dataclasses import dataclass

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.formats import money, number_text


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    kind: str  # money | count | ratio (one decimal) | percent (two decimals)

    @property
    def places(self) -> int:
        return {"money": 2, "count": 0, "ratio": 1, "percent": 2}[self.kind]

    def text(self, value) -> str:
        """The value for a person (the one number format), "—" for an unknown figure."""
        if value is None:
            return "—"
        return money(value) if self.kind == "money" else number_text(value, self.places)


WIN_COLUMNS = [
    Column("opener", _("Opener"), "money"),
    Column("closer", _("Closer"), "money"),
    Column("fills", _("Fills"), "money"),
    Column("credits", _("Credits"), "money"),
    Column("drop", _("Drop (counted)"), "money"),
    Column("win", _("Win"), "money"),
    Column("hold", _("Hold, %"), "percent"),
    Column("game_win", _("Result of the rounds"), "money"),
    Column("pit_cash", _("Cash to the pit desk"), "money"),
    Column("registered", _("Cash-ins to the cash box"), "money"),
    Column("drop_difference", _("Drop difference"), "money"),
]
PLAY_COLUMNS = [
    Column("rounds", _("Rounds"), "count"),
    Column("hands", _("Boxes played"), "count"),  # settled boxes (a split box once)
    Column("hands_per_hour", _("Boxes per hour"), "ratio"),
    Column("average_bet", _("Average bet"), "money"),
    Column("theoretical", _("Theoretical win"), "money"),
    Column("tips", _("Tips"), "money"),
]
FIGURES = WIN_COLUMNS + PLAY_COLUMNS
LABEL_TITLE = _("Line")


def legend() -> str:
    """The line under the report that says why the win and the rounds' result differ."""
    return str(
        gettext(
            "Win = closer − opener + drop + credits − fills; hold = win / drop. The result of "
            "the rounds = win + cash to the pit desk − drop difference when the chip counts "
            "are right: cash changed for chips through the pit desk never reaches the table's "
            "cash box, so it is not in the drop. Tips are never win."
        )
    )


def line_cells(figures, columns: list[Column]) -> list[dict]:
    """A report line's cells of one column group, as the screen shows them."""
    row = figures.row()
    return [
        {
            "key": c.key,
            "text": c.text(row[c.key]),
            "negative": row[c.key] is not None and row[c.key] < 0,
            "flagged": c.key == "drop_difference" and bool(row[c.key]),
            # a correction of this figure awaits its second signature: the cell shows the
            # figure in force, marked
            "pending": c.key in figures.pending,
        }
        for c in columns
    ]


# The dealer's figures (game.dealers.figures): after the dealer, the gaming day, the shift and
# his tables, one column per figure — the screen's and the exports'.
DEALER_COLUMNS = [
    Column("rounds", _("Rounds"), "count"),
    Column("hands", _("Hands"), "count"),
    Column("hours", _("Hours at the tables"), "ratio"),
    Column("rounds_per_hour", _("Rounds per hour"), "ratio"),
    Column("hands_per_hour", _("Hands per hour"), "ratio"),
    Column("decisions", _("Decisions timed"), "count"),
    Column("decision_average", _("Last card to decision, s"), "ratio"),
    Column("corrections", _("Corrections"), "count"),
    Column("voids", _("Voids"), "count"),
    Column("flags", _("Observer's flags"), "count"),
    Column("result", _("Result (house)"), "money"),
]


def dealer_cells(line) -> list[dict]:
    """One dealer line's figures as the screen shows them."""
    row = line.row()
    return [
        {
            "key": c.key,
            "text": c.text(row[c.key]),
            "negative": row[c.key] is not None and row[c.key] < 0,
        }
        for c in DEALER_COLUMNS
    ]
