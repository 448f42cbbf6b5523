"""``manage.py seed_demo``: the demo floor, safe to run twice, never in production mode."""

import io

import pytest
from django.core.management import CommandError, call_command

from game.configuration.services import house_edge
from staff import replacements, selectors
from staff import services as staff_services
from staff.models import TableAssignment, User
from staff.roles import Role, TableRole
from tables import selectors as tables_selectors
from tables.models import Pit, Table

DEMO_USERS = {
    "dealer": Role.DEALING_CROUPIER,
    "observer": Role.OBSERVING_CROUPIER,
    "inspector": Role.INSPECTOR,
    "duty": Role.DUTY_ADMINISTRATOR,
    "pitboss": Role.PIT_BOSS,
}


def _seed() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def _counts() -> dict[str, int]:
    return {
        "pits": Pit.objects.count(),
        "tables": Table.objects.count(),
        "users": User.objects.count(),
        "assignments": TableAssignment.objects.count(),
        "current": TableAssignment.objects.filter(ends_at__isnull=True).count(),
    }


@pytest.fixture
def debug_on(settings):
    settings.DEBUG = True


def test_refuses_to_run_with_debug_off(db, settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG"):
        _seed()

    assert not User.objects.exists()
    assert not Table.objects.exists()


def test_running_twice_gives_the_same_floor(db, debug_on):
    _seed()
    first = _counts()

    _seed()

    assert _counts() == first
    assert first == {"pits": 1, "tables": 4, "users": 8, "assignments": 6, "current": 6}


def test_creates_four_tables_one_of_them_with_six_boxes(db, debug_on):
    _seed()

    tables = list(Table.objects.order_by("number"))
    assert [t.number for t in tables] == [1, 2, 3, 4]
    assert sorted(t.boxes for t in tables) == [6, 7, 7, 7]
    assert all(t.min_bet < t.max_bet for t in tables)


def test_demo_users_sign_in_with_demo1234_and_croupiers_with_pin_1234(db, debug_on):
    _seed()

    for username, role in DEMO_USERS.items():
        user = User.objects.get(username=username)
        assert user.check_password("demo1234"), username
        assert user.has_role(role), username
        if role in staff_services.PIN_ROLES:
            assert staff_services.pin_check(identifier=username, pin="1234") == user
        else:
            assert user.pin_hash == "", f"{username} signs in with a password only"
            with pytest.raises(staff_services.PinError):
                staff_services.pin_check(identifier=username, pin="1234")


def test_admin_is_a_superuser_with_password_admin(db, debug_on):
    _seed()

    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    assert admin.check_password("admin")


def test_table_one_is_fully_staffed_and_the_inspector_oversees_every_table(db, debug_on):
    _seed()

    table_one = Table.objects.get(number=1)
    staff = selectors.table_staff(table=table_one)
    assert {role: user.username for role, user in staff.items()} == {
        TableRole.DEALING_CROUPIER: "dealer",
        TableRole.OBSERVING_CROUPIER: "observer",
        TableRole.INSPECTOR: "inspector",
    }
    inspector = User.objects.get(username="inspector")
    assert tables_selectors.inspector_tables(user=inspector).count() == 4


def test_prints_the_demo_logins(db, debug_on):
    output = _seed()

    for username in [*DEMO_USERS, "admin"]:
        assert username in output
    assert "demo1234" in output and "1234" in output


def test_a_later_run_keeps_a_changed_password(db, debug_on):
    _seed()
    dealer = User.objects.get(username="dealer")
    dealer.set_password("changed-9876")
    dealer.save()

    _seed()

    dealer.refresh_from_db()
    assert dealer.check_password("changed-9876")


def test_table_one_is_opened_through_its_recorded_checklist(db, debug_on):
    from tables.models import Checklist, ChipCount, TableChange

    _seed()
    _seed()
    table = Table.objects.get(number=1)
    assert table.status == Table.Status.OPEN
    assert TableChange.objects.filter(table=table, kind="status").count() == 2
    checklist = Checklist.objects.get(table=table)
    assert checklist.signed and checklist.completed_at is not None
    assert ChipCount.objects.filter(table=table, kind="opener").count() == 1
    assert set(Table.objects.exclude(number=1).values_list("status", flat=True)) == {"closed"}


def test_a_replacement_can_be_approved_as_seeded(db, debug_on):
    """Spare croupiers at no table: the inspector asks, the duty administrator approves one
    of them, and the tablet is handed over (no round is open)."""
    _seed()
    table = Table.objects.get(number=1)
    inspector, duty = User.objects.get(username="inspector"), User.objects.get(username="duty")
    spares = selectors.replacement_candidates(role=TableRole.DEALING_CROUPIER)
    assert [u.username for u in spares] == ["dealer2"]
    assert [u.username for u in selectors.replacement_candidates(role="observing_croupier")] == [
        "observer2"
    ]
    request = replacements.replacement_request(
        table=table, role=TableRole.DEALING_CROUPIER, reason="Tired", requested_by=inspector
    )
    replacements.replacement_approve(request_id=request.pk, decided_by=duty, replacement=spares[0])
    assert selectors.table_staff(table=table)[TableRole.DEALING_CROUPIER].username == "dealer2"


def test_the_demo_tables_know_their_decks_and_house_edge(db, debug_on):
    _seed()
    tables = {t.number: t for t in Table.objects.all()}
    assert {t.decks for t in tables.values()} == {6}
    assert tables[1].house_edge == house_edge({"preset": "standard"}) > 0
    assert tables[3].house_edge == house_edge({"preset": "open-cards"})
    dealer_at_1 = TableAssignment.objects.get(table=tables[1], role="dealing_croupier")
    assert dealer_at_1.relief.username == "dealer2"  # the rotation planned as seeded


def test_two_known_players_one_of_them_seated_at_bj1(db, debug_on):
    from game.models import Player, RatingSession

    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())
    assert set(Player.objects.values_list("card", flat=True)) == {"PC-1001", "PC-1002"}
    seated = RatingSession.objects.get()
    assert (seated.table.name, seated.seat, seated.card, seated.ended_at) == (
        "BJ-1",
        "1",
        "PC-1001",
        None,
    )
