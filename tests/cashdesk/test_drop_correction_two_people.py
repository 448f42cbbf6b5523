"""Issue 19 item 4, the drop: a correction of a counted drop is a new record signed by its
author and confirmed by a second person with his password; until then it is an open
exception, the report keeps the confirmed figure and says a correction is pending."""

from decimal import Decimal

import pytest

from cashdesk import corrections, days, services
from cashdesk.models import DropCount, GamingDayClose, Resolution
from cashdesk.selectors import cash_report, open_exceptions
from floor.errors import Refused
from staff import services as staff_services
from staff.roles import Role
from tables.models import Table
from tests.cashdesk.conftest import resolve, signed_by, today

pytestmark = pytest.mark.usefixtures("english")


def _played_and_counted(table, crew, closed_round):
    """A table that took a cash-in of 2 000 (recounted) and played, its drop counted 2 000."""
    cash_in = services.cash_in_record(
        table=table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    closed_round(table, bets=["1000"], players_net="-1000")
    return services.drop_enter(table=table, gaming_day=today(), amount="2000", actor=crew["duty"])


def _correct(table, crew, amount="1500", actor=None):
    return services.drop_enter(
        table=table,
        gaming_day=today(),
        amount=amount,
        actor=actor or crew["duty"],
        note="the box was recounted",
    )


def _confirm(correction, actor, second, password=None):
    return corrections.drop_correction_confirm(
        drop=correction, actor=actor, **signed_by(second, password=password)
    )


def _close(crew):
    Table.objects.update(status=Table.Status.CLOSED)
    return days.gaming_day_close(gaming_day=today(), actor=crew["duty"])


def _open():
    return [(e["kind"], e["object"].pk, e["code"]) for e in open_exceptions()]


def test_the_reviewers_path_one_person_can_no_longer_correct_and_sign_off(
    cash_table, crew, closed_round
):
    """The duty administrator enters a drop, corrects it, and tries to close the matter alone:
    the correction waits for a second person, the report keeps the counted figure, the day
    does not close, and he cannot resolve or confirm it himself."""
    first = _played_and_counted(cash_table, crew, closed_round)
    correction = _correct(cash_table, crew)
    assert correction.replaces == first and correction.confirmed_at is None

    assert _open() == [("drop", correction.pk, "correction_pending")]
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.drop == Decimal("2000") and line.pending == {"drop"}

    with pytest.raises(Refused) as own:
        _confirm(correction, crew["duty"], crew["duty"])
    assert own.value.code == "same_person"
    with pytest.raises(Refused) as resolving:
        resolve("drop", correction, crew["duty"], crew["inspector"])
    assert resolving.value.code == "waiting"
    with pytest.raises(Refused) as closing:
        _close(crew)
    assert "1 open exception" in str(closing.value)
    assert not GamingDayClose.objects.exists() and not Resolution.objects.exists()
    assert DropCount.objects.get(pk=correction.pk).confirmed_at is None


def test_a_confirmed_correction_is_the_figure_the_report_uses(cash_table, crew, closed_round):
    _played_and_counted(cash_table, crew, closed_round)
    correction = _correct(cash_table, crew)
    _confirm(correction, crew["duty"], crew["inspector"])

    correction.refresh_from_db()
    assert (correction.confirmed_by, correction.confirmed_at is not None) == (
        crew["inspector"],
        True,
    )
    line = cash_report(first=today(), last=today())["lines"][0]
    assert line.drop == Decimal("1500") and line.pending == set()
    # the confirmed figure differs from the registered cash-ins: that difference is open now
    assert _open() == [("drop", correction.pk, "drop_difference")]


@pytest.mark.parametrize(
    "who, code",
    [
        ("duty", "same_person"),  # the correction's author
        ("counter", "figure_author"),  # entered the figure that is corrected
        ("pitboss", "second_role"),  # neither a duty administrator nor the inspector
        ("wrong_password", "bad_credential"),
        ("seated", "second_seated"),  # a duty administrator dealing at that table
    ],
)
def test_who_may_not_confirm_a_correction(
    cash_table, crew, closed_round, make_user, duty2, who, code
):
    counter = make_user("counter", [Role.DUTY_ADMINISTRATOR])
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    services.drop_enter(table=cash_table, gaming_day=today(), amount="2000", actor=counter)
    correction = _correct(cash_table, crew)
    second, password = {
        "duty": (crew["duty"], None),
        "counter": (counter, None),
        "pitboss": (crew["pitboss"], None),
        "wrong_password": (duty2, "not-his-password"),
        "seated": (make_user("seated", [Role.DUTY_ADMINISTRATOR, Role.DEALING_CROUPIER]), None),
    }[who]
    if who == "seated":
        staff_services.assignment_start(
            table=cash_table, user=second, role="dealing_croupier", replace=True
        )
    with pytest.raises(Refused) as refused:
        _confirm(correction, duty2 if who == "duty" else crew["duty"], second, password)
    assert refused.value.code == code
    assert DropCount.objects.get(pk=correction.pk).confirmed_at is None
    assert _open() == [("drop", correction.pk, "correction_pending")]


def test_only_the_latest_pending_correction_is_confirmed_and_only_once(
    cash_table, crew, closed_round, duty2
):
    first = _played_and_counted(cash_table, crew, closed_round)
    with pytest.raises(Refused) as original:  # the first count is no correction
        _confirm(first, crew["duty"], duty2)
    assert original.value.code == "not_a_correction"
    wrong = _correct(cash_table, crew, amount="1400")
    right = _correct(cash_table, crew, amount="1500")  # supersedes the pending one
    assert right.replaces == wrong
    with pytest.raises(Refused) as superseded:
        _confirm(wrong, crew["duty"], duty2)
    assert superseded.value.code == "superseded"
    _confirm(right, crew["duty"], duty2)
    with pytest.raises(Refused) as again:
        _confirm(right, crew["duty"], crew["inspector"])
    assert again.value.code == "signed"
    assert DropCount.objects.get(pk=right.pk).confirmed_by == duty2
    assert cash_report(first=today(), last=today())["lines"][0].drop == Decimal("1500")


def test_a_drop_correction_on_the_duty_screens(
    client, cash_table, english_crew, closed_round, duty2
):
    """Through the pages: the drop screen records the correction as pending, the duty home
    lists it with a confirmation form; a refused confirmation says why and changes nothing."""
    from tests.cashdesk.conftest import once
    from tests.conftest import PASSWORD

    crew = english_crew
    _played_and_counted(cash_table, crew, closed_round)
    client.force_login(crew["duty"])
    answer = client.post(
        "/cash/duty/drop/",
        once(
            {
                "table": cash_table.pk,
                "gaming_day": today().isoformat(),
                "amount": "1500",
                "note": "the box was recounted",
            }
        ),
        follow=True,
    )
    assert "awaits a second person" in answer.content.decode()
    correction = DropCount.objects.get(replaces__isnull=False)
    report = client.get(f"/cash/reports/?day={today().isoformat()}").content.decode()
    drop_cell = report.split('data-column="drop"')[2].split("</td>")[0]  # [1]: the heading
    assert "2,000.00" in drop_cell and 'data-testid="correction-pending"' in drop_cell
    assert 'data-testid="pending-legend"' in report
    page = client.get("/cash/duty/").content.decode()
    assert f'id="exception-drop-{correction.pk}-correction_pending"' in page
    assert 'data-testid="confirm-correction-form"' in page

    refused = client.post(
        "/cash/duty/corrections/confirm/",
        {"kind": "drop", "object_id": correction.pk, "second": "duty", "second_password": PASSWORD},
    )
    assert refused.status_code == 400
    assert "another person" in refused.content.decode()
    assert DropCount.objects.get(pk=correction.pk).confirmed_at is None

    done = client.post(
        "/cash/duty/corrections/confirm/",
        {
            "kind": "drop",
            "object_id": correction.pk,
            "second": "duty2",
            "second_password": PASSWORD,
        },
        follow=True,
    )
    assert "Correction confirmed" in done.content.decode()
    assert DropCount.objects.get(pk=correction.pk).confirmed_by == duty2
