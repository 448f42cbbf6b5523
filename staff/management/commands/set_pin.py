"""Set a person's table PIN: ``manage.py set_pin <username>``.

Asks twice without echo, or reads one line from standard input with ``--pin-stdin`` (for
scripts: ``echo 1234 | manage.py set_pin anna --pin-stdin``). Clears any lockout.
"""

import getpass
import sys

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from staff import services as staff_services
from staff.models import User


class Command(BaseCommand):
    help = "Set the table PIN (4 to 6 digits) of a staff member and clear any PIN lockout."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--pin-stdin", action="store_true", help="Read the PIN from standard input."
        )

    def handle(self, *args, username, pin_stdin, **options):
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist:
            raise CommandError(
                _("No staff member with the username %(username)s.") % {"username": username}
            )
        if pin_stdin:
            pin = sys.stdin.readline().strip()
        else:
            pin = getpass.getpass(_("New PIN: "))
            if getpass.getpass(_("New PIN again: ")) != pin:
                raise CommandError(_("The two PINs differ; nothing changed."))
        try:
            staff_services.pin_set(user=user, pin=pin)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages))
        self.stdout.write(
            self.style.SUCCESS(_("PIN set for %(person)s.") % {"person": user.display_name})
        )
