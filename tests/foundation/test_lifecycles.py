"""Every transition of the lifecycles declared on their models (django-fsm-2): each one
allowed from where it starts with its guard met, and refused — nothing changed — from
another status or with its guard unmet."""

from decimal import Decimal

import pytest
from django_fsm import TransitionNotAllowed

from cashdesk.models import CashIn, GamingDayClose, Slip
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


# -- a slip: requested → issued → received; any of them → void_pending → voided -------------

SL = Slip.Status


def slip(status=SL.REQUESTED, **signatures):
    row = Slip(status=status, requested_by_id=1, void_reason=signatures.pop("reason", ""))
    for name, person in signatures.items():
        setattr(row, f"{name}_id", person)
    return row


@pytest.mark.parametrize(
    "method, source, target, signatures",
    [
        ("issue", SL.REQUESTED, SL.ISSUED, {"issued_by": 2}),
        ("receive", SL.ISSUED, SL.RECEIVED, {"issued_by": 2, "received_by": 3}),
        ("void_request", SL.REQUESTED, SL.VOID_PENDING, {"voided_by": 2, "reason": "wrong"}),
        ("void_request", SL.ISSUED, SL.VOID_PENDING, {"voided_by": 2, "reason": "wrong"}),
        ("void_request", SL.RECEIVED, SL.VOID_PENDING, {"voided_by": 1, "reason": "wrong"}),
        ("void_confirm", SL.VOID_PENDING, SL.VOIDED, {"voided_by": 2, "void_confirmed_by": 3}),
    ],
)
def test_a_slip_moves_on_with_its_signature(method, source, target, signatures):
    row = slip(source, **signatures)
    getattr(row, method)()
    assert row.status == target


@pytest.mark.parametrize(
    "method, source, signatures",
    [
        ("issue", SL.REQUESTED, {}),
        ("issue", SL.REQUESTED, {"issued_by": 1}),
        ("receive", SL.ISSUED, {"issued_by": 2}),
        ("receive", SL.ISSUED, {"issued_by": 2, "received_by": 1}),
        ("receive", SL.ISSUED, {"issued_by": 2, "received_by": 2}),
        ("void_request", SL.ISSUED, {"voided_by": 2, "reason": "  "}),
        ("void_request", SL.ISSUED, {"reason": "wrong"}),
        ("void_confirm", SL.VOID_PENDING, {"voided_by": 2}),
        ("void_confirm", SL.VOID_PENDING, {"voided_by": 2, "void_confirmed_by": 2}),
    ],
)
def test_a_slip_does_not_move_without_its_signature(method, source, signatures):
    row = slip(source, **signatures)
    with pytest.raises(TransitionNotAllowed):
        getattr(row, method)()
    assert row.status == source


SIGNED = {"issued_by": 2, "received_by": 3, "voided_by": 2, "void_confirmed_by": 3}
SLIP_SOURCES = {
    "issue": {SL.REQUESTED},
    "receive": {SL.ISSUED},
    "void_request": {SL.REQUESTED, SL.ISSUED, SL.RECEIVED},
    "void_confirm": {SL.VOID_PENDING},
}


@pytest.mark.parametrize(
    "method, source",
    [(m, s) for m, sources in SLIP_SOURCES.items() for s in SL if s not in sources],
)
def test_a_slip_does_not_move_from_another_status(method, source):
    row = slip(source, reason="wrong", **SIGNED)
    with pytest.raises(TransitionNotAllowed):
        getattr(row, method)()
    assert row.status == source


# -- a gaming day: open → closed → reopened ---------------------------------------------------

G = GamingDayClose.Status


def day(status=G.OPEN, waived=None, **fields):
    row = GamingDayClose(status=status, closed_by_id=1, waived=waived or {})
    for name, value in fields.items():
        setattr(row, name, value)
    return row


@pytest.mark.parametrize(
    "fields",
    [{}, {"waived": {"tables": [3]}, "waiver_reason": "late drop", "waiver_second_by_id": 2}],
)
def test_a_day_is_closed_by_its_signatures(fields):
    row = day(**fields)
    row.close()
    assert row.status == G.CLOSED


@pytest.mark.parametrize(
    "fields",
    [
        {"closed_by_id": None},
        {"waived": {"tables": [3]}, "waiver_reason": "", "waiver_second_by_id": 2},
        {"waived": {"tables": [3]}, "waiver_reason": "late drop"},
        {"waived": {"tables": [3]}, "waiver_reason": "late drop", "waiver_second_by_id": 1},
    ],
)
def test_a_day_is_not_closed_without_its_signatures(fields):
    row = day(**fields)
    with pytest.raises(TransitionNotAllowed):
        row.close()
    assert row.status == G.OPEN


REOPEN = {"reopen_reason": "a drop was missed", "reopened_by_id": 1, "reopen_confirmed_by_id": 2}


def test_a_closed_day_is_reopened_by_two_people_with_a_reason():
    row = day(G.CLOSED, **REOPEN)
    row.reopen()
    assert row.status == G.REOPENED


@pytest.mark.parametrize(
    "fields",
    [
        {**REOPEN, "reopen_reason": " "},
        {**REOPEN, "reopen_confirmed_by_id": None},
        {**REOPEN, "reopened_by_id": None},
        {**REOPEN, "reopen_confirmed_by_id": 1},
    ],
)
def test_a_day_is_not_reopened_without_a_reason_and_two_people(fields):
    row = day(G.CLOSED, **fields)
    with pytest.raises(TransitionNotAllowed):
        row.reopen()
    assert row.status == G.CLOSED


@pytest.mark.parametrize(
    "method, source",
    [("close", G.CLOSED), ("close", G.REOPENED), ("reopen", G.OPEN), ("reopen", G.REOPENED)],
)
def test_a_day_does_not_move_from_another_status(method, source):
    row = day(source, **REOPEN)
    with pytest.raises(TransitionNotAllowed):
        getattr(row, method)()
    assert row.status == source


# -- a checklist: in_progress → signing → signed → completed ---------------------------------

CK = Checklist.Status


@pytest.fixture
def under_way(make_table, pitboss):
    """An opening checklist of table 1, every step done, nobody signed yet."""

    def make(status=CK.IN_PROGRESS, *, steps=True, signatures=()):
        row = checklist(make_table(1, status=S.OPENING), "opening", pitboss, steps=steps)
        row.pit_boss_signed_by = row.second_signed_by = None
        for slot in signatures:
            setattr(row, f"{slot}_signed_by", pitboss)
        row.status = status
        row.save()
        return row

    return make


@pytest.mark.parametrize(
    "source, signatures, target",
    [
        (CK.IN_PROGRESS, ["pit_boss"], CK.SIGNING),
        (CK.IN_PROGRESS, ["second"], CK.SIGNING),
        (CK.SIGNING, ["pit_boss", "second"], CK.SIGNED),
    ],
)
def test_a_checklist_is_signed_with_every_step_done(under_way, source, signatures, target):
    row = under_way(source, signatures=signatures)
    row.sign()
    assert row.status == target


@pytest.mark.parametrize(
    "steps, signatures", [(False, ["pit_boss"]), (True, []), (False, ["pit_boss", "second"])]
)
def test_a_checklist_is_not_signed_with_a_step_undone_or_no_signature(under_way, steps, signatures):
    row = under_way(steps=steps, signatures=signatures)
    with pytest.raises(TransitionNotAllowed):
        row.sign()
    assert row.status == CK.IN_PROGRESS


@pytest.mark.parametrize("source", [CK.SIGNED, CK.COMPLETED])
def test_a_signed_checklist_is_not_signed_again(under_way, source):
    row = under_way(source, signatures=["pit_boss", "second"])
    with pytest.raises(TransitionNotAllowed):
        row.sign()
    assert row.status == source


def test_a_signed_checklist_is_completed(under_way):
    row = under_way(CK.SIGNED, signatures=["pit_boss", "second"])
    row.complete()
    assert row.status == CK.COMPLETED


@pytest.mark.parametrize("signatures", [[], ["pit_boss"], ["second"]])
def test_a_checklist_is_not_completed_without_both_signatures(under_way, signatures):
    row = under_way(CK.SIGNED, signatures=signatures)
    with pytest.raises(TransitionNotAllowed):
        row.complete()
    assert row.status == CK.SIGNED


def test_a_checklist_is_not_completed_with_a_step_undone(under_way):
    row = under_way(CK.SIGNED, steps=False, signatures=["pit_boss", "second"])
    with pytest.raises(TransitionNotAllowed):
        row.complete()
    assert row.status == CK.SIGNED


@pytest.mark.parametrize("source", [CK.IN_PROGRESS, CK.SIGNING, CK.COMPLETED])
def test_a_checklist_is_not_completed_from_another_status(under_way, source):
    row = under_way(source, signatures=["pit_boss", "second"])
    with pytest.raises(TransitionNotAllowed):
        row.complete()
    assert row.status == source


@pytest.mark.parametrize(
    "status, found",
    [(CK.IN_PROGRESS, True), (CK.SIGNING, True), (CK.SIGNED, True), (CK.COMPLETED, False)],
)
def test_the_checklist_under_way_is_the_one_its_status_has_not_completed(under_way, status, found):
    row = under_way(status, signatures=["pit_boss", "second"])
    assert (row.table.checklist_under_way() == row) is found
