"""The steps of the opening and closing checklists (docs/sources.md#opening-procedure,
docs/sources.md#closing-procedure).

Each step has a stable code, a label for the screen and the kind of input it records.
"""

from django.utils.translation import gettext_lazy as _

OPENING_STEPS = [
    ("chip_float", _("Chip float inserted and counted by denomination")),
    ("cards", _("Cards: number of decks; the opening player checked the spread")),
    ("shuffled", _("Cards washed and shuffled")),
    ("cut", _("Cards cut")),
    ("cut_card", _("Cut card inserted")),
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


def step_codes(kind: str) -> list[str]:
    return [code for code, _label in STEPS[kind]]
