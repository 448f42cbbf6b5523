"""A checklist's status follows its signatures and its completion through the services
(tables/services/lifecycle.py), and the migration that declared its lifecycle (tables 0015)
sets the same status from the signatures and ``completed_at`` of the rows it found."""

import importlib

from django.apps import apps

from tables import services
from tables.models import Checklist
from tests.tables.conftest import do_opening_steps

CK = Checklist.Status

CLOSING_DATA = {"chip_float": {"counts": {"25": 40, "100": 40, "500": 20}}}


def _statuses():
    return dict(Checklist.objects.values_list("pk", "status"))


def _migration_agrees():
    """The rows as they were before the migration (every status at its field's default),
    then its data step: the same statuses as the services left."""
    by_services = _statuses()
    Checklist.objects.update(status=CK.IN_PROGRESS)
    migration = importlib.import_module("tables.migrations.0015_checklist_status")
    migration.statuses(apps, None)
    assert _statuses() == by_services


def _sign(checklist, slot, signer, expected):
    checklist = services.checklist_sign(checklist=checklist, slot=slot, signer=signer)
    checklist.refresh_from_db()
    assert checklist.status == expected
    _migration_agrees()


def test_the_services_move_each_status_and_the_migration_finds_the_same(closed_table, crew):
    pitboss, inspector, duty = crew["pitboss"], crew["inspector"], crew["duty"]
    opening = services.checklist_start(table=closed_table, kind="opening", started_by=pitboss)
    do_opening_steps(opening, pitboss)
    assert opening.status == CK.IN_PROGRESS
    _migration_agrees()
    _sign(opening, "pit_boss", pitboss, CK.SIGNING)
    _sign(opening, "second", inspector, CK.SIGNED)
    services.table_open(table=closed_table, opened_by=pitboss)
    opening.refresh_from_db()
    assert opening.status == CK.COMPLETED
    _migration_agrees()

    # The closing, its second signature first.
    closing = services.checklist_start(table=closed_table, kind="closing", started_by=pitboss)
    closing_data = {**CLOSING_DATA, "drop_box": {"seal": "D-77", "removed_by": duty.pk}}
    closing_data["drop_box"]["witness"] = inspector
    for step in ("last_round", "reservations", "chip_float", "drop_box"):
        services.checklist_step_record(
            checklist=closing, step=step, done_by=pitboss, data=closing_data.get(step, {})
        )
    _sign(closing, "second", duty, CK.SIGNING)
    _sign(closing, "pit_boss", pitboss, CK.SIGNED)
    services.table_close(table=closed_table, closed_by=pitboss)
    closing.refresh_from_db()
    assert closing.status == CK.COMPLETED
    _migration_agrees()
