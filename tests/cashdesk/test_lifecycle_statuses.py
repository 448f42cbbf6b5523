"""A slip's and a gaming day's status follows their signatures through the services
(cashdesk/slips.py, cashdesk/days.py), and the migration that declared those lifecycles
(cashdesk 0016) sets the same status from the signatures of the rows it found."""

import importlib

from django.apps import apps

from cashdesk import days, slips
from cashdesk.models import GamingDayClose, Slip
from tables.models import Table
from tests.cashdesk.conftest import signed_by, today, waive
from tests.conftest import PASSWORD

SL, G = Slip.Status, GamingDayClose.Status


def _slips(table, crew):
    """One slip in each status, each moved there by the services."""

    def new():
        return slips.slip_request(
            table=table, actor=crew["inspector"], kind="fill", counts_by_denomination={"1000": 1}
        )

    requested, issued, received, pending, voided = (new() for _ in range(5))
    for row in (issued, received, pending, voided):
        slips.slip_issue(slip=row, actor=crew["duty"])
    slips.slip_receive(slip=received, actor=crew["dealer"])
    for row in (pending, voided):
        slips.slip_void(slip=row, actor=crew["duty"], reason="wrong table")
    slips.slip_void(slip=voided, actor=crew["inspector"])
    return {
        SL.REQUESTED: requested,
        SL.ISSUED: issued,
        SL.RECEIVED: received,
        SL.VOID_PENDING: pending,
        SL.VOIDED: voided,
    }


def _statuses():
    return (
        dict(Slip.objects.values_list("pk", "status")),
        dict(GamingDayClose.objects.values_list("pk", "status")),
    )


def test_the_services_move_each_status_and_the_migration_finds_the_same(cash_table, crew, duty2):
    made = _slips(cash_table, crew)
    for status, row in made.items():
        row.refresh_from_db()
        assert row.status == status
    Table.objects.update(status=Table.Status.CLOSED)
    first = waive(today(), crew["duty"], duty2)
    assert first.status == G.CLOSED
    reopened = days.gaming_day_reopen(
        gaming_day=today(),
        actor=crew["duty"],
        password=PASSWORD,
        reason="a fill was missed",
        **signed_by(duty2),
    )
    assert reopened.pk == first.pk and reopened.status == G.REOPENED
    second = waive(today(), crew["duty"], duty2)
    assert second.status == G.CLOSED
    by_services = _statuses()

    # The rows as they were before the migration: every status at its field's default.
    Slip.objects.update(status=SL.REQUESTED)
    GamingDayClose.objects.update(status=G.CLOSED)
    migration = importlib.import_module("cashdesk.migrations.0016_slip_and_gaming_day_status")
    migration.statuses(apps, None)

    assert _statuses() == by_services
