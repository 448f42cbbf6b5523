"""The opening checklist checks what the table's rule set says (kept on the table by the
configuration: tables cannot ask the engine): the decks counted must be the rule set's, and a
rule set that gives the players the edge opens only with an explicit confirmation."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from game.configuration.services import house_edge, table_configure
from tables import services
from tables.formats import percent
from tables.models import Table, TableChange
from tests.tables.conftest import do_opening_steps

PLAYER_EDGE = {"preset": "open-cards", "ties": "push"}  # the player's edge: about 8 %


def _start(table, pitboss):
    return services.checklist_start(table=table, kind="opening", started_by=pitboss)


def test_the_configuration_keeps_the_decks_and_the_house_edge(closed_table, crew):
    table_configure(
        table=closed_table, changed_by=crew["pitboss"], rules=PLAYER_EDGE | {"decks": 4}
    )
    closed_table.refresh_from_db()
    assert closed_table.decks == 4
    assert closed_table.house_edge == house_edge(PLAYER_EDGE | {"decks": 4}) < 0


@pytest.mark.parametrize(("rules", "counted", "ok"), [(6, 6, True), (6, 4, False), (4, 4, True)])
def test_the_decks_counted_must_be_the_rule_sets(closed_table, crew, rules, counted, ok):
    table_configure(
        table=closed_table, changed_by=crew["pitboss"], rules={"preset": "standard", "decks": rules}
    )
    checklist = _start(closed_table, crew["pitboss"])
    data = {"decks": counted, "spread_checked": True}
    if ok:
        row = services.checklist_step_record(
            checklist=checklist, step="cards", done_by=crew["pitboss"], data=data
        )
        assert row.details["decks"] == counted
        return
    with translation.override("en"), pytest.raises(ValidationError) as refusal:
        services.checklist_step_record(
            checklist=checklist, step="cards", done_by=crew["pitboss"], data=data
        )
    assert refusal.value.code == "decks_differ"
    assert refusal.value.messages == [
        "The table's rule set plays 6 decks, not 4: load 6 decks, or change the rule set first."
    ]
    assert not checklist.steps.filter(step="cards").exists()


def _signed_opening(table, crew):
    checklist = _start(table, crew["pitboss"])
    do_opening_steps(checklist, crew["pitboss"])
    services.checklist_sign(checklist=checklist, slot="pit_boss", signer=crew["pitboss"])
    services.checklist_sign(checklist=checklist, slot="second", signer=crew["inspector"])


def test_a_player_edge_table_opens_only_with_a_confirmation(closed_table, crew):
    table_configure(table=closed_table, changed_by=crew["pitboss"], rules=PLAYER_EDGE)
    _signed_opening(closed_table, crew)

    with translation.override("en"), pytest.raises(ValidationError) as refusal:
        services.table_open(table=closed_table, opened_by=crew["pitboss"])

    assert refusal.value.code == "player_edge"
    with translation.override("en"):
        edge = percent(house_edge(PLAYER_EDGE)).replace("\xa0", " ")
    assert f"the players have the edge (house edge {edge})" in refusal.value.messages[0]
    assert Table.objects.get(pk=closed_table.pk).status == Table.Status.OPENING
    services.table_open(table=closed_table, opened_by=crew["pitboss"], accept_player_edge=True)
    closed_table.refresh_from_db()
    assert closed_table.status == Table.Status.OPEN
    opening = TableChange.objects.filter(table=closed_table, to_status="open").get()
    assert opening.changes == {"player_edge_accepted": str(closed_table.house_edge)}
    assert closed_table.opened_at == opening.changed_at


def test_a_house_edge_table_opens_without_a_confirmation(closed_table, crew):
    _signed_opening(closed_table, crew)
    services.table_open(table=closed_table, opened_by=crew["pitboss"])
    assert Table.objects.get(pk=closed_table.pk).status == Table.Status.OPEN
