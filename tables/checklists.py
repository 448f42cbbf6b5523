"""The steps of the opening and closing checklists (docs/sources.md#opening-procedure,
docs/sources.md#closing-procedure).

Each step has a stable code, a label for the screen and the kind of input it records.
"""

from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from tables.formats import denominations, money

OPENING_STEPS = [
    ("chip_float", _("Chip float inserted and counted by denomination")),
    ("cards", _("Cards spread face down: number of decks")),
    ("spread_checked", _("The opening player checked the spread: every card present")),
    ("turned", _("The spread turned over with the special card")),
    ("mixed", _("Cards mixed and gathered")),
    ("shuffled", _("Cards shuffled")),
    ("cut", _("Cards cut: where (cards above the cut)")),
    ("cut_card", _("Cut card inserted: cards behind it")),
    ("shoe_loaded", _("Shoe loaded")),
    ("sign_out", _("Minimum and maximum bet sign out")),
    ("cash_box", _("Table cash box sealed (seal number) and tip box in place")),
    ("staff", _("Staff assigned: dealing croupier, observing croupier, inspector")),
]

CLOSING_STEPS = [
    ("last_round", _("The last round is closed")),
    ("reservations", _("Reservations cleared")),
    ("chip_float", _("Chip float counted by denomination (the closer)")),
    ("drop_box", _("Drop box removed: seal number, who removed it, the witness")),
]

STEPS = {"opening": OPENING_STEPS, "closing": CLOSING_STEPS}

# docs/sources.md#opening-procedure: the cards are prepared in this order — spread, the
# opening player's check, turned over, mixed and gathered, shuffled, cut, the cut card, the
# shoe loaded. Each of these steps waits for the one before it; the other steps (the float,
# the sign, the cash box, the staff) come in any order.
CARD_SEQUENCE = [
    "cards",
    "spread_checked",
    "turned",
    "mixed",
    "shuffled",
    "cut",
    "cut_card",
    "shoe_loaded",
]


def step_label(kind: str, code: str) -> str:
    return str(dict(STEPS[kind]).get(code, code))


def step_codes(kind: str) -> list[str]:
    return [code for code, _label in STEPS[kind]]


def float_discrepancy_lines(details: dict) -> list[str]:
    """What an opening float's step found against the par and against the last closing
    count (its ``details``, ``tables.services.steps``), one translated line each, in the
    person's number format: the totals, the difference in total and by denomination."""
    lines = []
    for reference, difference, by, text in (
        (
            "par",
            "par_difference",
            "par_by_denomination",
            _(
                "Par float %(reference)s: %(total)s counted, a difference of %(difference)s "
                "(%(chips)s)."
            ),
        ),
        (
            "reference",
            "difference",
            "by_denomination",
            _(
                "Last closing count %(reference)s: %(total)s counted, a difference of "
                "%(difference)s (%(chips)s)."
            ),
        ),
    ):
        if details.get(reference) is None or not (details.get(by) or _nonzero(details, difference)):
            continue
        lines.append(
            str(text)
            % {
                "reference": money(details[reference]),
                "total": money(details["total"]),
                "difference": money(details[difference]),
                "chips": denominations(details.get(by) or {}) or "—",
            }
        )
    return lines


def _nonzero(details: dict, key: str) -> bool:
    try:
        return Decimal(str(details.get(key) or 0)) != 0
    except ArithmeticError:
        return True
