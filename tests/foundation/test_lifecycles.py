"""Every transition of the lifecycles declared on their models (django-fsm-2): each one
allowed from where it starts with its guard met, and refused — nothing changed — from
another status or with its guard unmet."""

from decimal import Decimal

import pytest
from django_fsm import TransitionNotAllowed

from cashdesk.models import CashIn
from staff.models import ReplacementRequest
from staff.roles import Role
from tables.checklists import step_codes
from tables.models import Checklist, ChecklistStep, Table

S = Table.Status


# -- a table: closed → opening → open → closing → closed ------------------------------------


@pytest.fixture
def pitboss(make_user):
    return make_user("boss", [Role.PIT_BOSS])


def checklist(table, kind, by, *, steps=True, signed=True):
    row = Checklist.objects.create(table=table, kind=kind, started_by=by)
    if steps:
        for code in step_codes(kind):
            ChecklistStep.objects.create(checklist=row, step=code, done_by=by)
    if signed:
        row.pit_boss_signed_by = row.second_signed_by = by
        row.save()
    return row


@pytest.mark.parametrize(
    "method, source, target",
    [("opening_start", S.CLOSED, S.OPENING), ("closing_start", S.OPEN, S.CLOSING)],
)
def test_a_checklist_starts_from_its_status(method, source, target):
    table = Table(status=source)
    getattr(table, method)()
    assert table.status == target


@pytest.mark.parametrize(
    "method, source",
    [
        (m, s)
        for m, start in (("opening_start", S.CLOSED), ("closing_start", S.OPEN))
        for s in S
        if s != start
    ],
)
def test_a_checklist_does_not_start_from_another_status(method, source):
    table = Table(status=source)
    with pytest.raises(TransitionNotAllowed):
        getattr(table, method)()
    assert table.status == source


@pytest.mark.parametrize(
    "method, source, target, kind",
    [("open", S.OPENING, S.OPEN, "opening"), ("close", S.CLOSING, S.CLOSED, "closing")],
)
def test_a_table_opens_or_closes_with_its_checklist_done_and_signed(
    method, source, target, kind, make_table, pitboss
):
    table = make_table(1, status=source)
    checklist(table, kind, pitboss)
    getattr(table, method)()
    assert table.status == target


@pytest.mark.parametrize(
    "method, source, kind", [("open", S.OPENING, "opening"), ("close", S.CLOSING, "closing")]
)
@pytest.mark.parametrize("missing", ["checklist", "steps", "signatures"])
def test_a_table_does_not_open_or_close_without_its_checklist(
    method, source, kind, missing, make_table, pitboss
):
    table = make_table(1, status=source)
    if missing != "checklist":
        checklist(table, kind, pitboss, steps=missing != "steps", signed=missing != "signatures")
    with pytest.raises(TransitionNotAllowed):
        getattr(table, method)()
    assert table.status == source


@pytest.mark.parametrize("method, allowed", [("open", S.OPENING), ("close", S.CLOSING)])
def test_a_table_does_not_open_or_close_from_another_status(method, allowed, make_table):
    for source in S:
        if source == allowed:
            continue
        table = make_table(int(S.values.index(source)) + 10, status=source)
        with pytest.raises(TransitionNotAllowed):
            getattr(table, method)()
        assert table.status == source


# -- a croupier replacement: requested → approved → done, or requested → rejected ------------

R = ReplacementRequest.Status


def request(status=R.REQUESTED, replacement_id=2, note=""):
    return ReplacementRequest(
        status=status, current_person_id=1, replacement_id=replacement_id, decision_note=note
    )


def test_a_request_is_approved_naming_another_croupier():
    row = request()
    row.approve()
    assert row.status == R.APPROVED


@pytest.mark.parametrize("replacement_id", [None, 1])
def test_a_request_is_not_approved_without_another_croupier(replacement_id):
    row = request(replacement_id=replacement_id)
    with pytest.raises(TransitionNotAllowed):
        row.approve()
    assert row.status == R.REQUESTED


def test_a_request_is_rejected_with_a_note():
    row = request(note="He is fine")
    row.reject()
    assert row.status == R.REJECTED


def test_a_request_is_not_rejected_without_a_note():
    row = request(note="  ")
    with pytest.raises(TransitionNotAllowed):
        row.reject()
    assert row.status == R.REQUESTED


@pytest.mark.parametrize("status", [R.APPROVED, R.REJECTED, R.DONE])
@pytest.mark.parametrize("method", ["approve", "reject"])
def test_a_decided_request_is_not_decided_again(method, status):
    row = request(status=status, note="again")
    with pytest.raises(TransitionNotAllowed):
        getattr(row, method)()
    assert row.status == status


def test_an_approved_request_is_handed_over():
    row = request(status=R.APPROVED)
    row.hand_over()
    assert row.status == R.DONE


@pytest.mark.parametrize("status", [R.REQUESTED, R.REJECTED, R.DONE])
def test_only_an_approved_request_is_handed_over(status):
    row = request(status=status)
    with pytest.raises(TransitionNotAllowed):
        row.hand_over()
    assert row.status == status


# -- a cash-in: awaiting the recount → confirmed or mismatch ---------------------------------

C = CashIn.Status


def cash_in(status=C.AWAITING_RECOUNT, recounted_by_id=2, notes=None, amount="500"):
    return CashIn(
        status=status,
        entered_by_id=1,
        notes={"500": 1},
        amount=Decimal("500"),
        recounted_by_id=recounted_by_id,
        recount_notes=notes or {"500": 1},
        recount_amount=Decimal(amount),
    )


def test_a_recount_that_matches_confirms_the_cash_in():
    row = cash_in()
    assert row.recounted() == C.CONFIRMED
    assert row.status == C.CONFIRMED


def test_a_recount_that_differs_is_a_mismatch():
    row = cash_in(notes={"100": 4}, amount="400")
    row.recounted()
    assert row.status == C.MISMATCH


@pytest.mark.parametrize("recounted_by_id", [None, 1])
def test_a_cash_in_is_not_recounted_by_nobody_or_by_who_entered_it(recounted_by_id):
    row = cash_in(recounted_by_id=recounted_by_id)
    with pytest.raises(TransitionNotAllowed):
        row.recounted()
    assert row.status == C.AWAITING_RECOUNT


@pytest.mark.parametrize("status", [C.CONFIRMED, C.MISMATCH])
def test_a_cash_in_is_recounted_once(status):
    row = cash_in(status=status)
    with pytest.raises(TransitionNotAllowed):
        row.recounted()
    assert row.status == status
