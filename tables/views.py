from django.shortcuts import render
from django.utils.translation import gettext as _

from staff.access import role_required
from staff.roles import Role
from tables.selectors import floor_tables


@role_required(Role.PIT_BOSS)
def pit_home(request):
    """The pit boss's home: the tables of the floor; the checklists arrive with the tables work."""
    return render(
        request,
        "tables/pit_home.html",
        {
            "tables": floor_tables(),
            "coming": [
                _("The opening checklist of each table, signed by the pit boss and the inspector"),
                _("The closing checklist with the chip float count and the drop box"),
                _("Table configuration: limits, rule set, chip set"),
            ],
        },
    )
