"""Create the demo floor: one pit, four tables, the demo staff; safe to run again."""

from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from staff import services as staff_services
from staff.models import TableAssignment, User
from staff.roles import Role, TableRole
from tables.models import Pit, Table

DEMO_PASSWORD = "demo1234"
DEMO_PIN = "1234"

DEMO_USERS = [
    # username, full name, employee number, roles
    ("dealer", "Анна Дилерова", "1001", [Role.DEALING_CROUPIER]),
    ("observer", "Борис Наблюдатель", "1002", [Role.OBSERVING_CROUPIER]),
    ("inspector", "Вера Инспекторова", "2001", [Role.INSPECTOR]),
    ("duty", "Глеб Дежурный", "3001", [Role.DUTY_ADMINISTRATOR]),
    ("pitboss", "Дарья Питбосс", "4001", [Role.PIT_BOSS]),
]

DEMO_TABLES = [
    # number, name, boxes, min, max, rules, card entry, status
    (1, "BJ-1", 7, "100", "5000", {"preset": "standard"}, "manual", Table.Status.OPEN),
    (2, "BJ-2", 7, "200", "10000", {"preset": "hole-card"}, "manual", Table.Status.CLOSED),
    (3, "BJ-3", 6, "500", "100000", {"preset": "open-cards"}, "manual", Table.Status.CLOSED),
    (4, "BJ-4", 7, "50", "2000", {"preset": "standard"}, "simulated", Table.Status.CLOSED),
]


class Command(BaseCommand):
    help = "Create the demo pit, tables and staff (DEBUG only; idempotent)."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("seed_demo creates known passwords: it runs only with DEBUG on.")
        with transaction.atomic():
            pit, _ = Pit.objects.get_or_create(name="Pit A")
            tables = {}
            for number, name, boxes, lo, hi, rules, entry, status in DEMO_TABLES:
                table, created = Table.objects.get_or_create(
                    number=number,
                    defaults={
                        "pit": pit,
                        "name": name,
                        "boxes": boxes,
                        "min_bet": Decimal(lo),
                        "max_bet": Decimal(hi),
                        "rules": rules,
                        "card_entry": entry,
                        "status": status,
                    },
                )
                tables[number] = table
            users = {}
            for username, full_name, number, roles in DEMO_USERS:
                user, created = User.objects.get_or_create(
                    username=username,
                    defaults={"full_name": full_name, "employee_number": number},
                )
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.save()
                    staff_services.pin_set(user=user, pin=DEMO_PIN)
                staff_services.user_grant_roles(user=user, roles=roles)
                users[username] = user
            if not User.objects.filter(username="admin").exists():
                User.objects.create_superuser("admin", "admin@example.invalid", "admin")
            staffing = [
                (tables[1], users["dealer"], TableRole.DEALING_CROUPIER),
                (tables[1], users["observer"], TableRole.OBSERVING_CROUPIER),
            ] + [(tables[n], users["inspector"], TableRole.INSPECTOR) for n in (1, 2, 3, 4)]
            for table, user, role in staffing:
                if not TableAssignment.objects.filter(
                    table=table, role=role, ends_at__isnull=True
                ).exists():
                    staff_services.assignment_start(table=table, user=user, role=role)
        self.stdout.write(self.style.SUCCESS("Demo floor ready."))
        self.stdout.write(login_summary())


def login_summary() -> str:
    from django.utils import translation

    translation.activate("en")
    lines = ["Demo sign-ins (password / PIN):"]
    for username, _full_name, _number, roles in DEMO_USERS:
        role_names = ", ".join(str(Role(r).label) for r in roles)
        lines.append(f"  {username:<10} {DEMO_PASSWORD} / {DEMO_PIN}   {role_names}")
    lines.append("  admin      admin (superuser, /admin/)")
    return "\n".join(lines)
