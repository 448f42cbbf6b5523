import pytest

from tables import services

CHIPS = ["25", "100", "500"]


def do_opening_steps(checklist, user, counts=None, note=""):
    """Every opening step, done by ``user`` (``note``: why the float differs, where it does)."""
    data = {
        "chip_float": {"counts": counts or {"25": 40, "100": 40, "500": 20}, "note": note},
        "cards": {"decks": 6, "spread_checked": True},
        "cash_box": {"seal": "S-1001", "tip_box": True},
    }
    for step in [
        "chip_float",
        "cards",
        "shuffled",
        "cut",
        "cut_card",
        "shoe_loaded",
        "sign_out",
        "cash_box",
        "staff",
    ]:
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
