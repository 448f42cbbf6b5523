"""Issue 19, item 1: an exception is resolved in a state, not as an object. A resolution
names the state it accepts; a later change of the record reopens it; a record still waiting
(a recount not done, a slip not signed) cannot be resolved; resolving a money exception and
clearing a critical money alert take a second person with his password, never one who
entered or corrected the figure."""

import pytest
from django.urls import reverse

from cashdesk import services, slips
from cashdesk.models import CashIn, Resolution
from cashdesk.selectors import exception_of, open_exceptions
from floor.errors import Refused
from floor.models import Alert
from staff import services as staff_services
from staff.roles import Role
from tables.services import alert_acknowledge
from tests.cashdesk.conftest import resolve, signed_by, today
from tests.cashdesk.test_bad_input_never_crashes import refusal
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _cash_in(table, crew, thousands=2, **extra):
    return services.cash_in_record(
        table=table,
        actor=crew["dealer"],
        notes={"1000": thousands},
        chips={"1000": thousands},
        **extra,
    )


def _open(kind=None):
    return [
        (e["kind"], e["object"].pk, e["code"])
        for e in open_exceptions(gaming_day=today())
        if kind is None or e["kind"] == kind
    ]


def test_a_cash_in_awaiting_its_recount_cannot_be_resolved_and_its_mismatch_stays_open(
    cash_table, crew
):
    cash_in = _cash_in(cash_table, crew)
    with pytest.raises(Refused) as refused:
        resolve("cash_in", cash_in, crew["duty"], crew["inspector"], note="pre-emptive")
    assert refused.value.code == "waiting"
    assert "blind recount is not done" in str(refused.value)
    assert not Resolution.objects.exists()

    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    assert _open() == [("cash_in", cash_in.pk, "mismatch")]


def test_the_duty_administrator_does_not_clear_a_recount_mismatch_alone(cash_table, crew):
    cash_in = _cash_in(cash_table, crew)
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    alert = Alert.objects.get(kind="recount_mismatch")

    with pytest.raises(Refused) as alone:
        alert_acknowledge(alert_id=alert.pk, by=crew["duty"], note="seen")
    assert alone.value.code == "second_required"
    with pytest.raises(Refused) as himself:
        alert_acknowledge(
            alert_id=alert.pk, by=crew["duty"], note="seen", **signed_by(crew["duty"])
        )
    assert himself.value.code == "same_person"
    with pytest.raises(Refused) as wrong:
        alert_acknowledge(
            alert_id=alert.pk,
            by=crew["duty"],
            note="seen",
            **signed_by(crew["inspector"], password="not-his"),
        )
    assert wrong.value.code == "bad_credential"
    with pytest.raises(Refused) as croupier:
        alert_acknowledge(
            alert_id=alert.pk, by=crew["duty"], note="seen", **signed_by(crew["dealer"])
        )
    assert croupier.value.code == "second_role"
    assert Alert.objects.get(pk=alert.pk).open

    alert_acknowledge(
        alert_id=alert.pk, by=crew["duty"], note="counted on camera", **signed_by(crew["inspector"])
    )
    alert = Alert.objects.get(pk=alert.pk)
    assert not alert.open
    assert (alert.acknowledged_by, alert.acknowledgement_second_by) == (
        crew["duty"],
        crew["inspector"],
    )


def test_who_recounted_the_figure_never_clears_its_alert(cash_table, crew, make_user, duty2):
    """A duty administrator who also holds the observer's role and recounted the cash-in."""
    both = make_user("both", [Role.OBSERVING_CROUPIER, Role.DUTY_ADMINISTRATOR])
    staff_services.assignment_start(
        table=cash_table, user=both, role="observing_croupier", replace=True
    )
    cash_in = _cash_in(cash_table, crew)
    services.cash_in_recount(cash_in=cash_in, actor=both, notes={"1000": 1})
    alert = Alert.objects.get(kind="recount_mismatch")
    with pytest.raises(Refused) as seated:  # while he observes at the table
        alert_acknowledge(alert_id=alert.pk, by=duty2, note="fine", **signed_by(both))
    assert seated.value.code == "second_seated"
    staff_services.assignment_start(  # he leaves the table: still the one who recounted
        table=cash_table, user=crew["observer"], role="observing_croupier", replace=True
    )

    with pytest.raises(Refused) as own:
        alert_acknowledge(alert_id=alert.pk, by=both, note="fine", **signed_by(duty2))
    assert own.value.code == "own_alert"  # he raised it by his own recount
    with pytest.raises(Refused) as as_second:
        alert_acknowledge(alert_id=alert.pk, by=duty2, note="fine", **signed_by(both))
    assert as_second.value.code == "figure_author"
    with pytest.raises(Refused) as resolving:
        resolve("cash_in", cash_in, duty2, both)
    assert resolving.value.code == "figure_author"
    assert Alert.objects.get(pk=alert.pk).open and not Resolution.objects.exists()


def test_a_resolution_holds_only_for_the_state_it_accepted(cash_table, crew):
    """A drop difference resolved against the cash registered then; a cash-in registered
    later is another state: the exception is open again."""
    first = _cash_in(cash_table, crew)
    services.cash_in_recount(cash_in=first, actor=crew["observer"], notes={"1000": 2})
    drop = services.drop_enter(
        table=cash_table, gaming_day=today(), amount="2500", actor=crew["duty"]
    )
    resolution = resolve("drop", drop, crew["duty"], crew["inspector"], note="500 in the slot")
    assert '"registered":"2000.00"' in resolution.state
    assert resolution.second_by == crew["inspector"]
    assert _open() == []

    later = _cash_in(cash_table, crew, thousands=1)
    services.cash_in_recount(cash_in=later, actor=crew["observer"], notes={"1000": 1})
    assert _open() == [("drop", drop.pk, "drop_difference")]
    (exception,) = open_exceptions(gaming_day=today())
    assert exception["difference"] == -500
    resolve("drop", drop, crew["duty"], crew["inspector"], note="the player took 500 back")
    assert _open() == [] and Resolution.objects.count() == 2


def test_a_pit_desk_cash_in_waits_for_the_inspector_and_is_resolved_after(cash_table, crew):
    cash_in = _cash_in(cash_table, crew, destination=CashIn.Destination.PIT_CASH_DESK)
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    with pytest.raises(Refused) as refused:
        resolve("cash_in", cash_in, crew["duty"], crew["inspector"])
    assert refused.value.code == "waiting" and "inspector" in str(refused.value)
    services.cash_in_inspector_confirm(cash_in=cash_in, actor=crew["inspector"])
    resolve("cash_in", cash_in, crew["duty"], crew["inspector"], note="1000 short, paid back")
    assert _open() == []


def test_a_slip_not_signed_by_all_cannot_be_resolved_a_voided_one_can(cash_table, crew):
    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    for sign in (None, "issue", "void", None):
        if sign == "issue":
            slips.slip_issue(slip=slip, actor=crew["duty"])
        elif sign == "void":
            slips.slip_void(slip=slip, actor=crew["inspector"], reason="asked twice")
        with pytest.raises(Refused) as refused:
            resolve("slip", slip, crew["duty"], crew["pitboss"])
        assert refused.value.code == "waiting"
    slips.slip_void(slip=slip, actor=crew["duty"])
    # The inspector asked for the slip: he entered its figure and does not sign it off.
    with pytest.raises(Refused) as author:
        resolve("slip", slip, crew["duty"], crew["inspector"])
    assert author.value.code == "figure_author"
    with pytest.raises(Refused) as pit_boss:
        resolve("slip", slip, crew["duty"], crew["pitboss"])
    assert pit_boss.value.code == "second_role"
    assert _open("slip") == [("slip", slip.pk, "voided")]


def test_resolving_takes_a_second_duty_administrator_when_the_first_entered_the_drop(
    cash_table, crew, duty2
):
    drop = services.drop_enter(table=cash_table, gaming_day=today(), amount="800", actor=duty2)
    with pytest.raises(Refused) as author:
        resolve("drop", drop, crew["duty"], duty2)
    assert author.value.code == "figure_author"
    resolve("drop", drop, crew["duty"], crew["inspector"], note="no cash-in: a wrong table")
    assert _open() == []


def _resolve_post(exception, **fields):
    post = {
        "kind": exception["kind"],
        "object_id": exception["object"].pk,
        "note": "counted again",
        "state": exception["state_hash"],
        "second": "inspector",
        "second_password": PASSWORD,
    }
    post.update(fields)
    return post


def test_the_duty_home_resolves_with_two_signatures_and_shows_what_waits(
    client, cash_table, english_crew
):
    crew = english_crew
    waiting = _cash_in(cash_table, crew)
    mismatched = _cash_in(cash_table, crew, thousands=3)
    services.cash_in_recount(cash_in=mismatched, actor=crew["observer"], notes={"1000": 1})
    client.force_login(crew["duty"])
    page = client.get(reverse("cashdesk:duty_home")).content.decode()
    assert page.count('data-testid="exception-waiting"') == 1
    assert "Waiting for the blind recount: nothing to resolve yet" in page
    assert page.count('data-testid="resolve-form"') == 1
    assert 'name="second_password"' in page

    exception = exception_of(kind="cash_in", object_id=mismatched.pk)
    url = reverse("cashdesk:resolve")
    no_second = client.post(url, _resolve_post(exception, second="", second_password=""))
    assert "This needs a second person" in refusal(no_second)
    assert not Resolution.objects.exists()
    stale = _resolve_post(exception, state="0" * 64)
    assert refusal(client.post(url, stale)) == (
        "This record changed since your page showed it: look at it again, then resolve."
    )
    early = _resolve_post(exception_of(kind="cash_in", object_id=waiting.pk))
    assert "It cannot be resolved before that." in refusal(client.post(url, early))

    assert client.post(url, _resolve_post(exception)).status_code == 302
    resolution = Resolution.objects.get()
    assert (resolution.resolved_by, resolution.second_by) == (crew["duty"], crew["inspector"])
    assert resolution.state_hash == exception["state_hash"]
    assert _open() == [("cash_in", waiting.pk, "awaiting_recount")]


def test_a_resolution_before_the_recount_no_longer_hides_the_mismatch(
    client, cash_table, english_crew
):
    """The issue's walk, over HTTP: the duty administrator resolves a cash-in still awaiting
    its recount; the observer then recounts another figure; the duty administrator
    acknowledges the critical alert alone."""
    crew = english_crew
    cash_in = _cash_in(cash_table, crew)
    client.force_login(crew["duty"])
    early = client.post(
        reverse("cashdesk:resolve"),
        {
            "kind": "cash_in",
            "object_id": cash_in.pk,
            "note": "fine",
            "second": "inspector",
            "second_password": PASSWORD,
        },
    )
    assert "It cannot be resolved before that." in refusal(early)
    assert not Resolution.objects.exists()

    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    assert _open() == [("cash_in", cash_in.pk, "mismatch")]
    alert = Alert.objects.get(kind="recount_mismatch")
    alone = client.post(reverse("tables:alert_acknowledge"), {"alert": alert.pk, "note": "seen"})
    assert alone.status_code == 400
    assert "This needs a second person" in alone.content.decode()
    assert Alert.objects.get(pk=alert.pk).open
    page = client.get(reverse("tables:alerts"), {"open": "1"}).content.decode()
    assert 'data-testid="ack-second"' in page
    two = client.post(
        reverse("tables:alert_acknowledge"),
        {"alert": alert.pk, "note": "seen", "second": "inspector", "second_password": PASSWORD},
    )
    assert two.status_code == 302
    assert Alert.objects.get(pk=alert.pk).acknowledgement_second_by == crew["inspector"]
