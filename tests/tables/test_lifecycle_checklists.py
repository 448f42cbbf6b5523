"""Opening and closing a table: every step with who and when, two signatures, refusals."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from floor.models import Alert
from tables import services
from tables.models import Checklist, ChipCount, Table, TableChange
from tests.conftest import PASSWORD, PIN
from tests.desk import screen_seq
from tests.tables.conftest import do_opening_steps, open_table


def test_a_table_opens_after_every_step_and_two_signatures(closed_table, crew):
    open_table(closed_table, crew["pitboss"], crew["inspector"])
    closed_table.refresh_from_db()
    assert closed_table.status == Table.Status.OPEN
    steps = [
        (c.from_status, c.to_status, c.changed_by)
        for c in TableChange.objects.filter(table=closed_table).order_by("pk")
    ]
    assert steps == [
        ("closed", "opening", crew["pitboss"]),
        ("opening", "open", crew["pitboss"]),
    ]
    checklist = Checklist.objects.get(table=closed_table)
    assert checklist.completed_at is not None
    assert checklist.steps.count() == 12
    assert all(step.done_by == crew["pitboss"] and step.done_at for step in checklist.steps.all())
    count = ChipCount.objects.get(table=closed_table, kind="opener")
    assert count.total == Decimal("25") * 40 + Decimal("100") * 40 + Decimal("500") * 20


def test_opening_with_a_step_undone_is_refused(closed_table, crew):
    checklist = services.checklist_start(
        table=closed_table, kind="opening", started_by=crew["pitboss"]
    )
    services.checklist_step_record(
        checklist=checklist, step="sign_out", done_by=crew["pitboss"], data={}
    )
    with pytest.raises(ValidationError) as refusal:
        services.table_open(table=closed_table, opened_by=crew["pitboss"])
    assert refusal.value.code == "steps_missing"
    with pytest.raises(ValidationError) as refusal:
        services.checklist_sign(checklist=checklist, slot="pit_boss", signer=crew["pitboss"])
    assert refusal.value.code == "steps_missing"
    closed_table.refresh_from_db()
    assert closed_table.status == Table.Status.OPENING


def test_opening_unsigned_or_half_signed_is_refused(closed_table, crew):
    checklist = services.checklist_start(
        table=closed_table, kind="opening", started_by=crew["pitboss"]
    )
    do_opening_steps(checklist, crew["pitboss"])
    with pytest.raises(ValidationError) as refusal:
        services.table_open(table=closed_table, opened_by=crew["pitboss"])
    assert refusal.value.code == "unsigned"
    services.checklist_sign(checklist=checklist, slot="pit_boss", signer=crew["pitboss"])
    with pytest.raises(ValidationError):
        services.table_open(table=closed_table, opened_by=crew["pitboss"])
    assert Table.objects.get(pk=closed_table.pk).status == Table.Status.OPENING


def test_the_same_person_cannot_sign_twice(closed_table, crew, make_user):
    from staff.roles import Role

    both = make_user("both", [Role.PIT_BOSS, Role.INSPECTOR])
    checklist = services.checklist_start(table=closed_table, kind="opening", started_by=both)
    do_opening_steps(checklist, both)
    services.checklist_sign(checklist=checklist, slot="pit_boss", signer=both)
    with pytest.raises(ValidationError) as refusal:
        services.checklist_sign(checklist=checklist, slot="second", signer=both)
    assert refusal.value.code == "same_signer"
    checklist.refresh_from_db()
    assert checklist.second_signed_by is None


def test_a_signer_needs_the_right_role(closed_table, crew):
    checklist = services.checklist_start(
        table=closed_table, kind="opening", started_by=crew["pitboss"]
    )
    do_opening_steps(checklist, crew["pitboss"])
    with pytest.raises(ValidationError) as refusal:
        services.checklist_sign(checklist=checklist, slot="second", signer=crew["dealer"])
    assert refusal.value.code == "wrong_signer"


def _post(path="/tables/1/"):
    from django.test import RequestFactory

    return RequestFactory().post(path, REMOTE_ADDR="10.0.0.7")


def test_a_signer_proves_their_own_password(crew):
    def sign(secret, identifier="inspector"):
        return services.signer_authenticate(request=_post(), identifier=identifier, secret=secret)

    assert sign(PASSWORD) == crew["inspector"]
    with pytest.raises(ValidationError) as wrong:
        sign("wrong-password")
    assert wrong.value.code == "bad_credential"
    # Only croupiers have a PIN, and it signs nothing: a croupier's PIN is refused too.
    with pytest.raises(ValidationError):
        sign(PIN, identifier="dealer")


def test_a_step_is_done_once_and_bad_input_changes_nothing(closed_table, crew):
    checklist = services.checklist_start(
        table=closed_table, kind="opening", started_by=crew["pitboss"]
    )
    with pytest.raises(ValidationError):
        services.checklist_step_record(
            checklist=checklist, step="cards", done_by=crew["pitboss"], data={"decks": "six"}
        )
    with pytest.raises(ValidationError):
        services.checklist_step_record(
            checklist=checklist, step="cash_box", done_by=crew["pitboss"], data={"tip_box": True}
        )
    assert checklist.steps.count() == 0
    services.checklist_step_record(checklist=checklist, step="sign_out", done_by=crew["pitboss"])
    with pytest.raises(ValidationError) as refusal:
        services.checklist_step_record(
            checklist=checklist, step="sign_out", done_by=crew["pitboss"]
        )
    assert refusal.value.code == "step_done"


def test_staff_step_needs_the_three_table_roles(make_table, crew):
    bare = make_table(6, status="closed", chip_denominations=["100"])
    checklist = services.checklist_start(table=bare, kind="opening", started_by=crew["pitboss"])
    with pytest.raises(ValidationError) as refusal:
        services.checklist_step_record(checklist=checklist, step="staff", done_by=crew["pitboss"])
    assert refusal.value.code == "staff_missing"


def close_table(table, crew, counts=None):
    checklist = services.checklist_start(table=table, kind="closing", started_by=crew["pitboss"])
    for step, data in [
        ("last_round", {}),
        ("reservations", {}),
        ("chip_float", {"counts": counts or {"25": 40, "100": 40, "500": 20}}),
        (
            "drop_box",
            {"seal": "D-77", "removed_by": crew["duty"].pk, "witness": crew["inspector"]},
        ),
    ]:
        services.checklist_step_record(
            checklist=checklist, step=step, done_by=crew["pitboss"], data=data
        )
    services.checklist_sign(checklist=checklist, slot="pit_boss", signer=crew["pitboss"])
    services.checklist_sign(checklist=checklist, slot="second", signer=crew["duty"])
    return services.table_close(table=table, closed_by=crew["pitboss"])


def test_closing_counts_the_float_and_the_next_opening_compares_with_it(closed_table, crew):
    open_table(closed_table, crew["pitboss"], crew["inspector"])
    close_table(closed_table, crew, counts={"25": 40, "100": 38, "500": 20})
    assert Table.objects.get(pk=closed_table.pk).status == Table.Status.CLOSED
    closer = ChipCount.objects.get(table=closed_table, kind="closer")
    assert closer.total == Decimal("14800")
    assert not Alert.objects.filter(kind="float_difference").exists()
    open_table(  # 40 × 100 again: +200, a discrepancy signed for
        closed_table, crew["pitboss"], crew["inspector"], note="two chips back from the cage"
    )
    checklist = Checklist.objects.filter(table=closed_table, kind="opening").first()
    details = checklist.steps.get(step="chip_float").details
    assert details["reference"] == "14800.00"
    assert details["difference"] == "200.00"
    assert details["by_denomination"] == {"100": 2}
    alert = Alert.objects.get(table=closed_table, kind="float_difference")
    assert alert.params["difference"] == "200.00"


def test_drop_box_needs_a_witness_other_than_the_remover(closed_table, crew):
    open_table(closed_table, crew["pitboss"], crew["inspector"])
    checklist = services.checklist_start(
        table=closed_table, kind="closing", started_by=crew["pitboss"]
    )
    with pytest.raises(ValidationError) as refusal:
        services.checklist_step_record(
            checklist=checklist,
            step="drop_box",
            done_by=crew["pitboss"],
            data={"seal": "D-1", "removed_by": crew["duty"].pk, "witness": crew["duty"]},
        )
    assert refusal.value.code == "same_person"


def test_closing_refused_while_a_round_is_in_progress(closed_table, crew):
    from tests.game.conftest import Desk

    open_table(closed_table, crew["pitboss"], crew["inspector"])
    Desk(closed_table, crew["dealer"]).start_round({1: 100})
    checklist = services.checklist_start(
        table=closed_table, kind="closing", started_by=crew["pitboss"]
    )
    with pytest.raises(ValidationError) as refusal:
        services.checklist_step_record(
            checklist=checklist, step="last_round", done_by=crew["pitboss"]
        )
    assert refusal.value.code == "round_in_progress"


def test_lifecycle_moves_only_forward(table, crew):
    with pytest.raises(ValidationError) as refusal:
        services.checklist_start(table=table, kind="opening", started_by=crew["pitboss"])
    assert refusal.value.code == "bad_transition"


# Committed transactions: the screen sequence moves once per committed change (in one test
# transaction it would move once for all).
@pytest.mark.django_db(transaction=True)
def test_pit_boss_opens_a_table_through_the_screen(client, closed_table, crew, pitboss_en):
    client.force_login(crew["pitboss"])
    url = reverse("tables:table", kwargs={"table_id": closed_table.pk})
    client.post(url, {"op": "start_opening"})
    client.post(url, {"op": "step", "step": "chip_float", "count_25": "4", "count_100": "1"})
    client.post(url, {"op": "step", "step": "cards", "decks": "6"})
    for step in ("spread_checked", "turned", "mixed", "shuffled"):
        client.post(url, {"op": "step", "step": step})
    client.post(url, {"op": "step", "step": "cut", "cut_at": "140"})
    client.post(url, {"op": "step", "step": "cut_card", "cards_behind_cut": "95"})
    for step in ("shoe_loaded", "sign_out", "staff"):
        client.post(url, {"op": "step", "step": step})
    client.post(url, {"op": "step", "step": "cash_box", "seal": "S-9", "tip_box": "on"})
    refused = client.post(url, {"op": "open"}, follow=True).content.decode()
    assert "needs both signatures" in refused
    page = client.post(
        url,
        {"op": "sign", "slot": "second", "identifier": "pitboss", "secret": PASSWORD},
        follow=True,
    ).content.decode()
    assert "cannot sign here" in page
    client.post(
        url, {"op": "sign", "slot": "pit_boss", "identifier": "pitboss", "secret": PASSWORD}
    )
    client.post(
        url, {"op": "sign", "slot": "second", "identifier": "inspector", "secret": PASSWORD}
    )
    client.post(url, {"op": "open"})
    assert Table.objects.get(pk=closed_table.pk).status == Table.Status.OPEN
    # every screen of the table moved on with the table's status (the screen sequence)
    assert screen_seq(closed_table) >= 2
    assert ChipCount.objects.get(table=closed_table).total == Decimal("200")


def test_only_an_inspector_of_the_table_signs_its_opening(closed_table, crew, make_user):
    from staff.roles import Role

    stranger = make_user("stranger", [Role.INSPECTOR])  # oversees no table
    checklist = services.checklist_start(
        table=closed_table, kind="opening", started_by=crew["pitboss"]
    )
    do_opening_steps(checklist, crew["pitboss"])
    services.checklist_sign(checklist=checklist, slot="pit_boss", signer=crew["pitboss"])
    with pytest.raises(ValidationError) as refusal:
        services.checklist_sign(checklist=checklist, slot="second", signer=stranger)
    assert refusal.value.code == "not_this_table"
    checklist.refresh_from_db()
    assert checklist.second_signed_by is None


@pytest.mark.parametrize("count", [10**30, -1, "many"])
def test_a_chip_count_that_no_tray_holds_is_refused(closed_table, crew, count):
    from tables.models import ChipCount

    closed_table.chip_denominations = ["100"]
    closed_table.save(update_fields=["chip_denominations"])
    with pytest.raises(ValidationError) as refusal:
        services.chip_count_record(
            table=closed_table, kind="spot", counts={"100": count}, counted_by=crew["pitboss"]
        )
    assert refusal.value.code == "bad_count"
    assert not ChipCount.objects.filter(table=closed_table, kind="spot").exists()
