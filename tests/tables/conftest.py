import pytest

from tables import services
from tables.checklists import step_codes

CHIPS = ["25", "100", "500"]


# What each opening step needs (the rest need nothing): the float, the decks, where the pack
# was cut and the cut card (a quarter to a third of six decks), the seal.
OPENING_DATA = {
    "chip_float": {"counts": {"25": 40, "100": 40, "500": 20}},
    "cards": {"decks": 6},
    "cut": {"cut_at": 150},
    "cut_card": {"cards_behind_cut": 90},
    "cash_box": {"seal": "S-1001", "tip_box": True},
}


def do_opening_steps(checklist, user, counts=None, note="", steps=None):
    """Every opening step (or ``steps``), in order, done by ``user`` (``note``: why the
    float differs, where it does)."""
    data = {
        **OPENING_DATA,
        "chip_float": {"counts": counts or OPENING_DATA["chip_float"]["counts"], "note": note},
    }
    for step in steps or step_codes("opening"):
        services.checklist_step_record(
            checklist=checklist, step=step, done_by=user, data=data.get(step, {})
        )


def open_table(table, pitboss, inspector, counts=None, note=""):
    """Open ``table``; with ``note`` the float differs and the inspector signs for it."""
    checklist = services.checklist_start(table=table, kind="opening", started_by=pitboss)
    do_opening_steps(checklist, pitboss, counts, note)
    services.checklist_sign(checklist=checklist, slot="pit_boss", signer=pitboss)
    services.checklist_sign(
        checklist=checklist, slot="second", signer=inspector, acknowledge=bool(note)
    )
    return services.table_open(table=table, opened_by=pitboss)


@pytest.fixture
def closed_table(table, crew):
    """Table 1, staffed by the crew, closed, with a chip set."""
    table.status = "closed"
    table.chip_denominations = CHIPS
    table.save()
    return table


@pytest.fixture
def pitboss_en(crew):
    """The pit boss reads English (assertions below read the English messages)."""
    crew["pitboss"].preferred_language = "en"
    crew["pitboss"].save(update_fields=["preferred_language"])
    return crew["pitboss"]
