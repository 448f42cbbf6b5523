"""Issue 19 item 6: an opening float that differs from the par (or from the last closing
count) is a discrepancy — the step says what differs, by denomination and in total, needs
a note, raises a critical money alert, and the inspector's signature acknowledges it."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from floor.models import Alert
from tables import services
from tables.checklists import step_codes
from tables.models import Checklist, ChecklistStep, ChipCount, Table
from tests.conftest import PASSWORD
from tests.tables.conftest import do_opening_steps

pytestmark = pytest.mark.usefixtures("english")

# The demo table's chip set and par (seed_demo): 185 000 at par.
CHIPS = ["50", "100", "500", "1000", "5000"]
PAR = {"50": 100, "100": 100, "500": 60, "1000": 40, "5000": 20}
SHORT = {**PAR, "5000": 1}  # the reviewer's float: one chip of 5 000 where 20 are expected


@pytest.fixture
def par_table(table, crew):
    table.status = Table.Status.CLOSED
    table.chip_denominations = CHIPS
    table.par_float = PAR
    table.save()
    return table


def _opening(table, crew):
    return services.checklist_start(table=table, kind="opening", started_by=crew["pitboss"])


def _float(checklist, crew, counts, note=""):
    return services.checklist_step_record(
        checklist=checklist,
        step="chip_float",
        done_by=crew["pitboss"],
        data={"counts": counts, "note": note},
    )


def test_the_reviewers_short_float_is_refused_without_a_note_and_says_what_differs(par_table, crew):
    checklist = _opening(par_table, crew)
    with pytest.raises(ValidationError) as refused:
        _float(checklist, crew, SHORT)
    assert refused.value.code == "float_note_required"
    text = str(refused.value.message)
    assert "90,000.00" in text and "185,000.00" in text  # the totals, in the number format
    assert "−95,000.00" in text  # the difference in total
    assert "5,000 × −19" in text  # by denomination
    # nothing recorded: no count, no step, no alert
    assert not ChipCount.objects.exists() and not ChecklistStep.objects.exists()
    assert not Alert.objects.exists()


def test_a_short_float_with_a_note_is_recorded_as_a_discrepancy_with_a_critical_alert(
    par_table, crew
):
    checklist = _opening(par_table, crew)
    step = _float(checklist, crew, SHORT, note="the cage is short of 5 000 chips")
    details = step.details
    assert details["total"] == "90000.00" and details["par"] == "185000.00"
    assert details["par_difference"] == "-95000.00"
    assert details["par_by_denomination"] == {"5000": -19}
    assert details["note"] == "the cage is short of 5 000 chips"
    assert details["discrepancy"] is True
    alert = Alert.objects.get(table=par_table, kind="float_par_difference")
    assert alert.severity == Alert.Severity.CRITICAL
    assert alert.params["difference"] == "-95000.00" and alert.raised_by == crew["pitboss"]


def test_a_float_at_par_needs_no_note_and_raises_nothing(par_table, crew):
    step = _float(_opening(par_table, crew), crew, PAR)
    assert step.details["discrepancy"] is False and step.details["par_difference"] == "0.00"
    assert not Alert.objects.exists()


def test_a_float_that_differs_from_the_last_closer_needs_a_note_too(par_table, crew):
    ChipCount.objects.create(
        table=par_table,
        kind="closer",
        counts=PAR,
        total=Decimal("185000"),
        counted_by=crew["inspector"],
        counted_at=timezone.now(),
    )
    par_table.par_float = {}
    par_table.save()
    checklist = _opening(par_table, crew)
    with pytest.raises(ValidationError) as refused:
        _float(checklist, crew, {**PAR, "100": 98})
    assert refused.value.code == "float_note_required"
    assert "Last closing count" in str(refused.value.message)
    _float(checklist, crew, {**PAR, "100": 98}, note="two chips found on the floor later")
    assert Alert.objects.filter(kind="float_difference").count() == 1


def test_the_inspector_signs_only_acknowledging_the_discrepancy(par_table, crew):
    checklist = _opening(par_table, crew)
    do_opening_steps(checklist, crew["pitboss"], counts=SHORT, note="short of 5 000 chips")
    services.checklist_sign(checklist=checklist, slot="pit_boss", signer=crew["pitboss"])
    with pytest.raises(ValidationError) as refused:
        services.checklist_sign(checklist=checklist, slot="second", signer=crew["inspector"])
    assert refused.value.code == "discrepancy_unacknowledged"
    assert "−95,000.00" in str(refused.value.message)
    assert Checklist.objects.get(pk=checklist.pk).second_signed_by is None

    services.checklist_sign(
        checklist=checklist, slot="second", signer=crew["inspector"], acknowledge=True
    )
    signed = Checklist.objects.get(pk=checklist.pk)
    assert signed.second_signed_by == crew["inspector"]
    assert signed.acknowledged["par_difference"] == "-95000.00"
    services.table_open(table=par_table, opened_by=crew["pitboss"])
    # the alert stays open: clearing a critical money alert takes two people
    assert Alert.objects.get(kind="float_par_difference").open


def test_the_opening_page_shows_the_par_the_discrepancy_and_what_the_inspector_signs_for(
    client, par_table, crew, pitboss_en
):
    checklist = _opening(par_table, crew)
    client.force_login(pitboss_en)
    url = f"/tables/{par_table.pk}/"
    page = client.get(url).content.decode()
    assert 'data-testid="par-5000"' in page  # the par beside each denomination's input
    post = {"op": "step", "step": "chip_float", **{f"count_{d}": n for d, n in SHORT.items()}}
    refused = client.post(url, post, follow=True).content.decode()
    assert "Par float 185,000.00" in refused and "5,000 × −19" in refused
    assert not ChipCount.objects.exists()
    client.post(url, {**post, "float_note": "short of 5 000 chips"})
    page = client.get(url).content.decode()
    assert 'data-testid="float-discrepancy"' in page and "−95,000.00" in page
    assert "✓ Pitboss" not in page.split('data-testid="step-chip_float"')[1].split("</li>")[0]
    do_opening_steps(checklist, crew["pitboss"], steps=step_codes("opening")[1:])
    page = client.get(url).content.decode()
    assert 'data-testid="sign-acknowledge"' in page and "You sign for" in page
    refused = client.post(
        url,
        {"op": "sign", "slot": "second", "identifier": "inspector", "secret": PASSWORD},
        follow=True,
    ).content.decode()
    assert "acknowledging" in refused
    assert Checklist.objects.get(pk=checklist.pk).second_signed_by is None
    client.post(
        url,
        {
            "op": "sign",
            "slot": "second",
            "identifier": "inspector",
            "secret": PASSWORD,
            "acknowledge": "on",
        },
    )
    assert Checklist.objects.get(pk=checklist.pk).second_signed_by == crew["inspector"]
