"""Issue 19 item 4, chip counts and cash-ins: a correction of a chip count (opener, closer,
spot) or of a cash-in's amount after the recount is a new record signed by its author and
confirmed by a second person with his password; until then it is an open exception that
keeps the day from closing, and the report keeps the figure in force, marked pending."""

from decimal import Decimal

import pytest

from cashdesk import corrections, days, services
from cashdesk.models import CashIn, CashInCorrection
from cashdesk.selectors import (
    cash_report,
    day_close_objections,
    inventory_checks,
    live_totals,
    open_exceptions,
)
from floor.errors import Refused
from tables.models import ChipCount, Table
from tests.cashdesk.conftest import signed_by, today

pytestmark = pytest.mark.usefixtures("english")


def _open(kind=None):
    """The open exceptions (of one kind)."""
    found = [(e["kind"], e["object"].pk, e["code"]) for e in open_exceptions()]
    return [e for e in found if kind is None or e[0] == kind]


# -- chip counts ----------------------------------------------------------------------------


def test_a_chip_count_correction_waits_for_a_second_person(worked_day, crew):
    """The opener of the worked day (100 000) corrected to 99 000 by the inspector who
    counted it: the report keeps 100 000 and says so; he cannot confirm it; the duty
    administrator's confirmation makes 99 000 the opener (and the win 1 000 more)."""
    opener = ChipCount.objects.get(kind="opener")
    correction = corrections.chip_count_correct(
        count=opener, counts={"1000": 99}, note="one chip counted twice", actor=crew["inspector"]
    )
    assert correction.replaces == opener and correction.kind == "opener"
    assert correction.counted_at == opener.counted_at and correction.total == Decimal("99000")
    assert _open("chip_count") == [("chip_count", correction.pk, "correction_pending")]
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.opener == Decimal("100000") and line.pending == {"opener"}
    assert line.win == Decimal("17000")
    check = inventory_checks(table=worked_day, gaming_day=today())[0]
    assert check["count"] == opener and check["pending"] == correction

    with pytest.raises(Refused) as author:  # he counted the opener and corrected it
        corrections.chip_count_correction_confirm(
            count=correction, actor=crew["duty"], **signed_by(crew["inspector"])
        )
    assert author.value.code == "same_person"
    blocking = day_close_objections(gaming_day=today())["exceptions"]
    assert ("chip_count", correction.pk) in [(e["kind"], e["object"].pk) for e in blocking]

    corrections.chip_count_correction_confirm(
        count=correction, actor=crew["duty"], **signed_by(crew["duty"])
    )
    assert _open("chip_count") == []
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.opener == Decimal("99000") and line.pending == set()
    assert line.win == Decimal("18000")
    assert inventory_checks(table=worked_day, gaming_day=today())[0]["count"] == correction


@pytest.mark.parametrize(
    "who, code",
    [
        ("dealer", "forbidden"),  # a croupier never corrects a count
        ("observer", "forbidden"),
    ],
)
def test_who_may_not_correct_a_chip_count(worked_day, crew, who, code):
    opener = ChipCount.objects.get(kind="opener")
    with pytest.raises(Refused) as refused:
        corrections.chip_count_correct(count=opener, counts={"1000": 99}, note="x", actor=crew[who])
    assert refused.value.code == code
    assert ChipCount.objects.count() == 2


def test_a_chip_count_correction_needs_a_note_and_chips_of_the_set(worked_day, crew):
    opener = ChipCount.objects.get(kind="opener")
    with pytest.raises(Refused) as no_note:
        corrections.chip_count_correct(
            count=opener, counts={"1000": 99}, note=" ", actor=crew["duty"]
        )
    assert no_note.value.code == "no_note"
    with pytest.raises(Refused) as bad:
        corrections.chip_count_correct(count=opener, counts={"7": 1}, note="x", actor=crew["duty"])
    assert bad.value.code == "bad_count"
    assert ChipCount.objects.count() == 2


def test_the_next_opening_compares_with_the_closer_in_force(cash_table, crew, count_chips, duty2):
    """A closer corrected and confirmed is the next opening's reference (the inspector
    counted it, the duty administrator corrected it: a second duty administrator confirms)."""
    from tables import services as table_services

    closer = count_chips(cash_table, "closer", "100000")
    correction = corrections.chip_count_correct(
        count=closer,
        counts={"1000": 90},
        note="ten chips were in the float's lid",
        actor=crew["duty"],
    )
    cash_table.status = Table.Status.CLOSED
    cash_table.save()
    checklist = table_services.checklist_start(
        table=cash_table, kind="opening", started_by=crew["pitboss"]
    )
    with pytest.raises(Refused):  # the pending correction is not in force: 90 000 differs
        table_services.checklist_step_record(
            checklist=checklist,
            step="chip_float",
            done_by=crew["pitboss"],
            data={"counts": {"1000": 90}},
        )
    corrections.chip_count_correction_confirm(
        count=correction, actor=crew["duty"], **signed_by(duty2)
    )
    step = table_services.checklist_step_record(
        checklist=checklist,
        step="chip_float",
        done_by=crew["pitboss"],
        data={"counts": {"1000": 90}},
    )
    assert step.details["reference"] == "90000.00" and step.details["discrepancy"] is False


# -- cash-ins -------------------------------------------------------------------------------


def _mismatch(table, crew):
    cash_in = services.cash_in_record(
        table=table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    return services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})


def test_a_cash_in_correction_waits_for_a_second_person_then_sets_the_amount(cash_table, crew):
    cash_in = _mismatch(cash_table, crew)
    correction = corrections.cash_in_correct(
        cash_in=cash_in, notes={"1000": 1}, note="camera: one note", actor=crew["duty"]
    )
    assert correction.cash_in == cash_in and correction.amount == Decimal("1000")
    assert CashIn.objects.get(pk=cash_in.pk).amount == Decimal("2000")  # never edited
    assert _open() == [("cash_in_correction", correction.pk, "correction_pending")]
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.registered == Decimal("2000") and line.pending == {"registered"}
    with pytest.raises(Refused) as resolving:
        days.exception_resolve(
            kind="cash_in",
            object_id=cash_in.pk,
            actor=crew["duty"],
            note="x",
            **signed_by(crew["inspector"]),
        )
    assert resolving.value.code == "waiting"

    for second, code in [
        (crew["duty"], "same_person"),
        (crew["dealer"], "second_role"),
        (crew["pitboss"], "second_role"),
    ]:
        with pytest.raises(Refused) as refused:
            corrections.cash_in_correction_confirm(
                correction=correction, actor=crew["duty"], **signed_by(second)
            )
        assert refused.value.code == code
    assert CashInCorrection.objects.get(pk=correction.pk).confirmed_at is None

    corrections.cash_in_correction_confirm(
        correction=correction, actor=crew["duty"], **signed_by(crew["inspector"])
    )
    assert _open() == []  # the mismatch is settled by two people
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.registered == Decimal("1000") and line.pending == set()
    row = [r for r in live_totals(gaming_day=today()) if r["table"] == cash_table][0]
    assert row["cash_box"] == Decimal("1000") and row["total"] == Decimal("1000")


def test_a_cash_in_is_corrected_only_after_its_recount(cash_table, crew):
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    with pytest.raises(Refused) as refused:
        corrections.cash_in_correct(
            cash_in=cash_in, notes={"1000": 1}, note="x", actor=crew["duty"]
        )
    assert refused.value.code == "waiting"
    with pytest.raises(Refused) as croupier:
        corrections.cash_in_correct(
            cash_in=cash_in, notes={"1000": 1}, note="x", actor=crew["dealer"]
        )
    assert croupier.value.code == "forbidden"
    assert not CashInCorrection.objects.exists()


def test_the_observer_who_recounted_never_confirms_its_correction(
    cash_table, crew, make_user, duty2
):
    from staff import services as staff_services
    from staff.roles import Role

    both = make_user("both", [Role.OBSERVING_CROUPIER, Role.DUTY_ADMINISTRATOR])
    staff_services.assignment_start(
        table=cash_table, user=both, role="observing_croupier", replace=True
    )
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=both, notes={"1000": 1})
    staff_services.assignment_start(
        table=cash_table, user=crew["observer"], role="observing_croupier", replace=True
    )
    correction = corrections.cash_in_correct(
        cash_in=cash_in, notes={"1000": 1}, note="camera", actor=duty2
    )
    with pytest.raises(Refused) as refused:
        corrections.cash_in_correction_confirm(
            correction=correction, actor=duty2, **signed_by(both)
        )
    assert refused.value.code == "figure_author"


def test_corrections_through_the_table_cash_screen_and_the_duty_home(
    client, cash_table, english_crew, count_chips
):
    """The inspector corrects a cash-in and a chip count on the table's cash screen; the
    duty home lists both with a confirmation form; a refused form says why, changes
    nothing."""
    from tests.cashdesk.conftest import once
    from tests.conftest import PASSWORD

    crew = english_crew
    opener = count_chips(cash_table, "opener", "100000")
    cash_in = _mismatch(cash_table, crew)
    client.force_login(crew["inspector"])
    url = f"/cash/tables/{cash_table.pk}/"
    page = client.get(url).content.decode()
    assert 'data-testid="cash-in-correct"' in page and 'data-testid="chip-count-correct"' in page
    refused = client.post(
        f"{url}cash-in/correct/", once({"cash_in": cash_in.pk, "note-1000": "1", "note": ""})
    )
    assert refused.status_code == 400 and "needs a note" in refused.content.decode()
    assert not CashInCorrection.objects.exists()
    done = client.post(
        f"{url}cash-in/correct/",
        once({"cash_in": cash_in.pk, "note-1000": "1", "note": "camera"}),
        follow=True,
    )
    assert "awaits a second person" in done.content.decode()
    client.post(
        f"{url}chip-count/correct/",
        once({"count": opener.pk, "chip-1000": "99", "note": "one chip twice"}),
    )
    assert ChipCount.objects.filter(replaces=opener).exists()

    client.force_login(crew["duty"])
    page = client.get("/cash/duty/").content.decode()
    assert page.count('data-testid="confirm-correction-form"') == 2
    count_correction = ChipCount.objects.get(replaces=opener)
    refused = client.post(
        "/cash/duty/corrections/confirm/",
        {
            "kind": "chip_count",
            "object_id": count_correction.pk,
            "second": "inspector",
            "second_password": PASSWORD,
        },
    )
    assert refused.status_code == 400 and "another person" in refused.content.decode()
    assert ChipCount.objects.get(pk=count_correction.pk).confirmed_at is None
    client.post(
        "/cash/duty/corrections/confirm/",
        {
            "kind": "cash_in_correction",
            "object_id": CashInCorrection.objects.get().pk,
            "second": "pitboss",
            "second_password": PASSWORD,
        },
    )
    assert CashInCorrection.objects.get().confirmed_at is None  # a pit boss may not


def test_a_players_day_total_counts_confirmed_corrections_not_the_amounts_entered(
    cash_table, crew, settings
):
    """The card's day total (the 'player's cash-ins of the day' alert) adds the amounts in
    force: a cash-in corrected from 2 000 to 12 000 counts 12 000 — at the next cash-in of
    the card, and at the correction's confirmation itself."""
    from floor.models import Alert

    settings.CASH_IN_PLAYER_DAY_ALERT_AMOUNT = 20000
    first = services.cash_in_record(
        table=cash_table,
        actor=crew["dealer"],
        notes={"1000": 2},
        chips={"1000": 2},
        player_card="PC-9",
    )
    services.cash_in_recount(cash_in=first, actor=crew["observer"], notes={"1000": 12})
    correction = corrections.cash_in_correct(
        cash_in=first, notes={"1000": 12}, note="camera: twelve notes", actor=crew["duty"]
    )
    corrections.cash_in_correction_confirm(
        correction=correction, actor=crew["duty"], **signed_by(crew["inspector"])
    )
    assert services.player_day_total(today(), "PC-9") == Decimal("12000")
    assert not Alert.objects.filter(kind="cash_in_player_day").exists()

    services.cash_in_record(
        table=cash_table,
        actor=crew["dealer"],
        notes={"5000": 2},
        chips={"5000": 2},
        player_card="PC-9",
    )

    alert = Alert.objects.get(kind="cash_in_player_day")
    assert alert.params["amount"] == "22000.00"  # 12 000 in force + 10 000, not 2 000 + 10 000


def test_a_confirmed_correction_that_crosses_the_players_day_threshold_alerts(
    cash_table, crew, settings
):
    from floor.models import Alert

    settings.CASH_IN_PLAYER_DAY_ALERT_AMOUNT = 10000
    first = services.cash_in_record(
        table=cash_table,
        actor=crew["dealer"],
        notes={"1000": 2},
        chips={"1000": 2},
        player_card="PC-10",
    )
    services.cash_in_recount(cash_in=first, actor=crew["observer"], notes={"1000": 12})
    correction = corrections.cash_in_correct(
        cash_in=first, notes={"1000": 12}, note="camera", actor=crew["duty"]
    )
    assert not Alert.objects.filter(kind="cash_in_player_day").exists()

    corrections.cash_in_correction_confirm(
        correction=correction, actor=crew["duty"], **signed_by(crew["inspector"])
    )

    assert Alert.objects.get(kind="cash_in_player_day").params["amount"] == "12000.00"


def test_the_exports_say_which_figures_await_a_second_signature(cash_table, crew):
    """The screen marks a cell whose correction is pending; the CSV and the XLSX say it in
    their last column, line by line and on the total."""
    import csv
    import io

    from openpyxl import load_workbook

    from cashdesk.exports import report_csv, report_xlsx

    cash_in = _mismatch(cash_table, crew)
    corrections.cash_in_correct(cash_in=cash_in, notes={"1000": 1}, note="cam", actor=crew["duty"])
    report = cash_report(first=today(), last=today())

    rows = list(csv.reader(io.StringIO(report_csv(report).decode("utf-8-sig"))))
    assert rows[0][-1] == "Awaiting confirmation"
    assert rows[1][-1] == "Cash-ins to the cash box"  # the table's line
    assert rows[2][-1] == "Cash-ins to the cash box"  # the total
    sheet = load_workbook(io.BytesIO(report_xlsx(report))).active
    assert sheet.cell(row=1, column=sheet.max_column).value == "Awaiting confirmation"
    assert sheet.cell(row=2, column=sheet.max_column).value == "Cash-ins to the cash box"
