"""One seat per person per table, three distinct people to deal (issue 19, item 3;
staff/seats.py): a person holding several roles is never given two seats at one table —
by the service, the staff board, the admin or a replacement —, a round opens only with
three different people in the three seats, and nobody acknowledges an alert of a table at
which he deals or observes."""

import itertools

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from floor.alerts import alert_raise
from floor.models import Alert
from staff import replacements, seats
from staff import services as staff_services
from staff.models import TableAssignment
from staff.roles import Role, TableRole
from staff.selectors import table_staff
from tables.services import alert_acknowledge

pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py

SEATS = [TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER, TableRole.INSPECTOR]
TWO_SEATS = list(itertools.permutations(SEATS, 2))


@pytest.fixture
def versatile(make_user):
    """A person holding all three table roles (and, for the alerts, the duty role)."""
    return make_user("versatile", [*SEATS, Role.DUTY_ADMINISTRATOR], full_name="Vera Versatile")


def _seat_twice(person, table, role) -> None:
    """A second seat written around the rule (as data from before it was kept)."""
    TableAssignment.objects.filter(table=table, role=role, ends_at__isnull=True).update(
        ends_at=timezone.now()
    )
    TableAssignment.objects.create(table=table, user=person, role=role, starts_at=timezone.now())


def _seated_message(seat) -> str:
    return (
        f"Vera Versatile already works at this table as {TableRole(seat).label}: one person "
        "holds one seat at a table. Release that seat first."
    )


@pytest.mark.parametrize(("held", "wanted"), TWO_SEATS)
def test_a_second_seat_at_one_table_is_refused_with_a_message(versatile, table, held, wanted):
    staff_services.assignment_start(table=table, user=versatile, role=held)

    with pytest.raises(ValidationError) as refused:
        staff_services.assignment_start(table=table, user=versatile, role=wanted)

    assert refused.value.code == "two_seats"
    assert refused.value.messages == [_seated_message(held)]
    assert seats.seats_held(versatile, table) == {held}


@pytest.mark.parametrize(("held", "wanted"), TWO_SEATS)
def test_taking_over_a_seat_does_not_give_its_holder_a_second_one(
    crew, table, versatile, held, wanted
):
    """``replace`` (the staff board, a relief, a hand-over) ends the other holder, never
    the person's own other seat: the table keeps its other holder and is not changed."""
    staff_services.staff_assign(table=table, role=held, user=versatile, assigned_by=crew["pitboss"])
    before = table_staff(table=table)

    with pytest.raises(ValidationError) as refused:
        staff_services.staff_assign(
            table=table, role=wanted, user=versatile, assigned_by=crew["pitboss"]
        )

    assert refused.value.messages == [_seated_message(held)]
    assert table_staff(table=table) == before


def test_the_staff_board_shows_the_refusal(crew, table, versatile, client):
    staff_services.staff_assign(
        table=table, role=TableRole.INSPECTOR, user=versatile, assigned_by=crew["pitboss"]
    )
    client.force_login(crew["pitboss"])

    page = client.post(
        reverse("tables:staff_board"),
        {
            "op": "assign",
            "table": table.pk,
            "role": TableRole.DEALING_CROUPIER,
            "person": versatile.pk,
        },
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert _seated_message(TableRole.INSPECTOR) in page.content.decode()
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == crew["dealer"]


def test_a_replacement_who_inspects_the_table_is_refused_at_the_approval(crew, table, versatile):
    request = replacements.replacement_request(
        table=table,
        role=TableRole.DEALING_CROUPIER,
        reason="Slow",
        requested_by=crew["inspector"],
    )
    staff_services.staff_assign(
        table=table, role=TableRole.INSPECTOR, user=versatile, assigned_by=crew["pitboss"]
    )

    with pytest.raises(ValidationError) as refused:
        replacements.replacement_approve(
            request_id=request.pk, decided_by=crew["duty"], replacement=versatile
        )

    assert refused.value.messages == [_seated_message(TableRole.INSPECTOR)]
    assert table_staff(table=table)[TableRole.DEALING_CROUPIER] == crew["dealer"]


def test_the_inspector_of_several_tables_may_deal_at_another(versatile, make_table, table):
    """One seat per person per *table*: inspecting BJ-1 and BJ-2 and dealing at BJ-3."""
    other, third = make_table(2), make_table(3)
    for inspected in (table, other):
        staff_services.assignment_start(table=inspected, user=versatile, role="inspector")

    staff_services.assignment_start(table=third, user=versatile, role="dealing_croupier")

    assert seats.may_take_seat(versatile, third, TableRole.DEALING_CROUPIER)
    assert not seats.may_take_seat(versatile, table, TableRole.DEALING_CROUPIER)


@pytest.mark.parametrize("seat", SEATS)
def test_a_round_opens_only_with_three_different_people(crew, table, dealer_desk, seat):
    """A crew of two people in three seats (written around the assignment rule) deals
    nothing; the tablet says who holds two seats."""
    two_seated = crew["dealer"] if seat != TableRole.DEALING_CROUPIER else crew["observer"]
    staff_services.user_grant_roles(user=two_seated, roles=SEATS)
    _seat_twice(two_seated, table, seat)
    dealer = table_staff(table=table)[TableRole.DEALING_CROUPIER]
    dealer_desk.user = dealer
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)

    refused = dealer_desk.send("open-round")

    assert (refused.ok, refused.code) == (False, "crew_not_distinct")
    assert refused.message == (
        f"{two_seated.display_name} holds two seats at this table: a round needs three "
        "different people as the dealing croupier, the observing croupier and the inspector."
    )
    assert not seats.may_deal_round(dealer, table)


def test_a_round_opens_with_the_three_of_the_crew(crew, table, dealer_desk):
    assert seats.may_deal_round(crew["dealer"], table)
    assert not seats.may_deal_round(crew["observer"], table)
    dealer_desk.start_round({1: 100})


def test_the_opening_checklist_refuses_a_crew_of_two(crew, table, versatile):
    from tables import services as tables_services

    table.status = "closed"
    table.save(update_fields=["status"])
    _seat_twice(versatile, table, TableRole.DEALING_CROUPIER)
    _seat_twice(versatile, table, TableRole.INSPECTOR)
    checklist = tables_services.checklist_start(
        table=table, kind="opening", started_by=crew["pitboss"]
    )

    with pytest.raises(ValidationError) as refused:
        tables_services.checklist_step_record(
            checklist=checklist, step="staff", done_by=crew["pitboss"]
        )

    assert refused.value.code == "crew_not_distinct"
    assert "Vera Versatile holds two seats at this table" in refused.value.messages[0]


@pytest.fixture
def voided_alert(crew, table):
    return alert_raise(
        table_id=table.pk,
        kind="round_voided",
        params={"round": 1, "reason": "Misdeal"},
        severity=Alert.Severity.CRITICAL,
        raised_by=crew["inspector"],
    )


CROUPIER_SEATS = [TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER]
OWN_TABLE = (
    "You work at this table as a croupier: an alert of the table where you deal or observe "
    "is acknowledged by someone else."
)


@pytest.mark.parametrize("seat", CROUPIER_SEATS)
def test_a_duty_administrator_does_not_acknowledge_an_alert_of_the_table_he_works(
    crew, table, versatile, voided_alert, seat
):
    staff_services.staff_assign(table=table, role=seat, user=versatile, assigned_by=crew["duty"])

    with pytest.raises(ValidationError) as refused:
        alert_acknowledge(alert_id=voided_alert.pk, by=versatile, note="All fine")

    assert (refused.value.code, refused.value.messages) == ("own_table", [OWN_TABLE])
    assert Alert.objects.get(pk=voided_alert.pk).open
    alert_acknowledge(alert_id=voided_alert.pk, by=crew["duty"], note="Seen on camera")
    assert not Alert.objects.get(pk=voided_alert.pk).open


@pytest.mark.parametrize("seat", CROUPIER_SEATS)
def test_an_inspector_seated_as_croupier_too_does_not_acknowledge_its_alerts(
    crew, table, versatile, seat
):
    _seat_twice(versatile, table, TableRole.INSPECTOR)
    _seat_twice(versatile, table, seat)
    flag = alert_raise(
        table_id=table.pk, kind="flag", params={"note": "x"}, raised_by=crew["observer"]
    )

    with pytest.raises(ValidationError) as refused:
        alert_acknowledge(alert_id=flag.pk, by=versatile, note="Mine")

    assert refused.value.code == "own_table"
    assert Alert.objects.get(pk=flag.pk).open


@pytest.mark.parametrize(("language", "words"), [("en", "someone else"), ("ru", "другой")])
def test_the_alert_list_offers_no_acknowledgement_at_his_own_table(
    crew, table, versatile, voided_alert, client, language, words
):
    staff_services.staff_assign(
        table=table, role=TableRole.DEALING_CROUPIER, user=versatile, assigned_by=crew["duty"]
    )
    client.force_login(versatile)

    page = client.get(reverse("tables:alerts"), HTTP_ACCEPT_LANGUAGE=language)
    refused = client.post(
        reverse("tables:alert_acknowledge"),
        {"alert": voided_alert.pk, "note": "Mine"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE=language,
    )

    html = page.content.decode()
    assert 'data-testid="ack-own-table"' in html and 'data-testid="ack-form"' not in html
    with translation.override(language):
        assert words in html
        assert 'data-outcome="refused"' in refused.content.decode()
        assert words in refused.content.decode()
