"""Create the demo floor: one pit, four tables, the demo staff; safe to run again."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from game.configuration.services import rule_facts, table_configure
from game.models import Player, RatingSession
from game.services import command_submit
from staff import services as staff_services
from staff.models import TableAssignment, User
from staff.roles import Role, TableRole
from tables import services as table_services
from tables.checklists import step_codes
from tables.models import Pit, Table, TableChange

DEMO_PASSWORD = "demo1234"
DEMO_PIN = "1234"

DEMO_USERS = [
    # username, full name, employee number, roles
    ("dealer", "Анна Дилерова", "1001", [Role.DEALING_CROUPIER]),
    ("observer", "Борис Наблюдатель", "1002", [Role.OBSERVING_CROUPIER]),
    ("inspector", "Вера Инспекторова", "2001", [Role.INSPECTOR]),
    ("duty", "Глеб Дежурный", "3001", [Role.DUTY_ADMINISTRATOR]),
    ("pitboss", "Дарья Питбосс", "4001", [Role.PIT_BOSS]),
    # Spare croupiers, at no table: who relieves at a break, or takes over when the duty
    # administrator approves a replacement.
    ("dealer2", "Евгений Сменщиков", "1003", [Role.DEALING_CROUPIER]),
    ("observer2", "Жанна Запасная", "1004", [Role.OBSERVING_CROUPIER]),
]

DEMO_TABLES = [
    # number, name, boxes, min, max, rules, card entry (every table starts closed; table 1
    # is then opened through its opening checklist, as a pit boss would)
    (1, "BJ-1", 7, "100", "5000", {"preset": "standard"}, "manual"),
    (2, "BJ-2", 7, "200", "10000", {"preset": "hole-card"}, "manual"),
    (3, "BJ-3", 6, "500", "100000", {"preset": "open-cards"}, "manual"),
    (4, "BJ-4", 7, "50", "2000", {"preset": "standard"}, "simulated"),
]
# Known players (their player cards): PC-1001 is seated at BJ-1 as box 1's player.
DEMO_PLAYERS = [("PC-1001", "Иван Петров"), ("PC-1002", "Мария Смирнова")]
DEMO_CHIPS = ["50", "100", "500", "1000", "5000"]
DEMO_PAR = {"50": 100, "100": 100, "500": 60, "1000": 40, "5000": 20}


class Command(BaseCommand):
    help = "Create the demo pit, tables and staff (DEBUG only; idempotent)."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("seed_demo creates known passwords: it runs only with DEBUG on.")
        with transaction.atomic():
            tables = _seed_tables()
            users = _seed_people()
            _seed_staffing(tables, users)
            if not TableChange.objects.filter(
                table=tables[1], to_status=Table.Status.OPEN
            ).exists():
                _open_demo_table(tables[1], users["pitboss"], users["inspector"])
            _seed_players(tables[1])
        self.stdout.write(self.style.SUCCESS("Demo floor ready."))
        self.stdout.write(login_summary())


def _seed_tables() -> dict:
    """The demo pit's tables by number, every one closed when first made."""
    pit, _ = Pit.objects.get_or_create(name="Pit A")
    tables = {}
    for number, name, boxes, lo, hi, rules, entry in DEMO_TABLES:
        tables[number], _ = Table.objects.get_or_create(
            number=number,
            defaults={
                "pit": pit,
                "name": name,
                "boxes": boxes,
                "min_bet": Decimal(lo),
                "max_bet": Decimal(hi),
                "rules": rules,
                "card_entry": entry,
                "status": Table.Status.CLOSED,
                "chip_denominations": DEMO_CHIPS,
                "par_float": DEMO_PAR,
                **rule_facts(rules),
            },
        )
    return tables


def _seed_people() -> dict:
    """The demo staff by username (known password; a PIN where the role may use one) and
    the admin."""
    users = {}
    for username, full_name, number, roles in DEMO_USERS:
        user, created = User.objects.get_or_create(
            username=username,
            defaults={"full_name": full_name, "employee_number": number},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        staff_services.user_grant_roles(user=user, roles=roles)
        if staff_services.may_use_pin(user):
            if created:
                staff_services.pin_set(user=user, pin=DEMO_PIN)
        elif user.pin_hash:  # a demo database seeded when everyone had a PIN
            user.pin_hash = ""
            user.save(update_fields=["pin_hash"])
        users[username] = user
    if not User.objects.filter(username="admin").exists():
        User.objects.create_superuser("admin", "admin@example.invalid", "admin")
    return users


def _seed_staffing(tables: dict, users: dict) -> None:
    """BJ-1's crew, the inspector over every table, and BJ-1's rotation: the spare dealer
    relieves the dealer at the next break."""
    staffing = [
        (tables[1], users["dealer"], TableRole.DEALING_CROUPIER),
        (tables[1], users["observer"], TableRole.OBSERVING_CROUPIER),
    ] + [(tables[n], users["inspector"], TableRole.INSPECTOR) for n in (1, 2, 3, 4)]
    for table, user, role in staffing:
        if not TableAssignment.objects.filter(
            table=table, role=role, ends_at__isnull=True
        ).exists():
            staff_services.assignment_start(table=table, user=user, role=role)
    dealer_at_1 = _dealer_at(tables[1])
    if dealer_at_1 is not None and dealer_at_1.relief_id is None:
        if dealer_at_1.user_id != users["dealer2"].pk:
            staff_services.relief_plan(
                assignment=dealer_at_1, relief=users["dealer2"], planned_by=users["pitboss"]
            )


def _dealer_at(table):
    return TableAssignment.objects.filter(
        table=table, role=TableRole.DEALING_CROUPIER, ends_at__isnull=True
    ).first()


def _seed_players(table) -> None:
    """The known players; PC-1001 seated at BJ-1's box 1 by the tablet's own command."""
    for card, name in DEMO_PLAYERS:
        Player.objects.get_or_create(card=card, defaults={"name": name})
    if RatingSession.objects.filter(card=DEMO_PLAYERS[0][0]).exists():
        return
    dealer = _dealer_at(table)
    if dealer is not None:
        command_submit(
            table_id=table.pk,
            actor=dealer.user,
            command={
                "id": str(uuid.uuid4()),
                "action": "player-in",
                "seat": "1",
                "player_card": DEMO_PLAYERS[0][0],
            },
        )


def _open_demo_table(table, pitboss, inspector) -> None:
    """Open ``table`` through its opening checklist (every step by the demo pit boss, signed
    by the demo pit boss and inspector), so the demo shows a recorded opening."""
    if table.status == Table.Status.OPEN:
        return  # a demo database seeded before checklists existed
    if not table.chip_denominations:
        table_configure(
            table=table, changed_by=pitboss, chip_denominations=DEMO_CHIPS, par_float=DEMO_PAR
        )
    checklist = table_services.checklist_start(table=table, kind="opening", started_by=pitboss)
    data = {
        "chip_float": {"counts": {d: n for d, n in DEMO_PAR.items() if d in DEMO_CHIPS}},
        "cards": {"decks": 6},
        "cut": {"cut_at": 150},
        "cut_card": {"cards_behind_cut": 90},
        "cash_box": {"seal": "DEMO-0001", "tip_box": True},
    }
    for step in step_codes("opening"):
        table_services.checklist_step_record(
            checklist=checklist, step=step, done_by=pitboss, data=data.get(step, {})
        )
    table_services.checklist_sign(checklist=checklist, slot="pit_boss", signer=pitboss)
    table_services.checklist_sign(checklist=checklist, slot="second", signer=inspector)
    table_services.table_open(table=table, opened_by=pitboss)


def login_summary() -> str:
    from django.utils import translation

    translation.activate("en")
    lines = ["Demo sign-ins (password / PIN; only croupiers have a PIN):"]
    for username, _full_name, _number, roles in DEMO_USERS:
        role_names = ", ".join(str(Role(r).label) for r in roles)
        pin = DEMO_PIN if set(roles) & set(staff_services.PIN_ROLES) else "—"
        lines.append(f"  {username:<10} {DEMO_PASSWORD} / {pin:<4}   {role_names}")
    lines.append("  admin      admin (superuser, /admin/)")
    return "\n".join(lines)
