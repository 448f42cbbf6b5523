"""The five roles of the pit. Each role is a Django group carrying one permission."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    DEALING_CROUPIER = "dealing_croupier", _("Dealing croupier")
    OBSERVING_CROUPIER = "observing_croupier", _("Observing croupier")
    INSPECTOR = "inspector", _("Inspector")
    DUTY_ADMINISTRATOR = "duty_administrator", _("Duty administrator")
    PIT_BOSS = "pit_boss", _("Pit boss")


class TableRole(models.TextChoices):
    """Roles that are assigned to a particular table for a period."""

    DEALING_CROUPIER = Role.DEALING_CROUPIER.value, Role.DEALING_CROUPIER.label
    OBSERVING_CROUPIER = Role.OBSERVING_CROUPIER.value, Role.OBSERVING_CROUPIER.label
    INSPECTOR = Role.INSPECTOR.value, Role.INSPECTOR.label


# role -> (permission codename, permission name); the permission lives on staff.User.
ROLE_PERMISSIONS = {
    Role.DEALING_CROUPIER: ("deal_at_table", "Can deal at an assigned table"),
    Role.OBSERVING_CROUPIER: ("observe_at_table", "Can observe at an assigned table"),
    Role.INSPECTOR: ("inspect_tables", "Can oversee assigned tables"),
    Role.DUTY_ADMINISTRATOR: ("administer_duty", "Can run the duty administration"),
    Role.PIT_BOSS: ("manage_pit", "Can open and close tables of the pit"),
}

# The order a person's home screen is chosen in when they hold several roles.
HOME_ORDER = [
    Role.DEALING_CROUPIER,
    Role.OBSERVING_CROUPIER,
    Role.INSPECTOR,
    Role.DUTY_ADMINISTRATOR,
    Role.PIT_BOSS,
]
