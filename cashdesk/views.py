from django.shortcuts import render
from django.utils.translation import gettext as _

from staff.access import role_required
from staff.roles import Role


@role_required(Role.DUTY_ADMINISTRATOR)
def duty_home(request):
    """The duty administrator's home. The cash reports arrive with the cash-desk work."""
    return render(
        request,
        "staff/placeholder.html",
        {
            "heading": _("Duty administrator"),
            "intro": _("Cash reports per table, shift and gaming day will be here."),
            "coming": [
                _("Live cash-in totals per table"),
                _("Win and hold per table, shift and gaming day"),
                _("Fill and credit slips to issue and sign"),
                _("Croupier replacement requests to decide"),
            ],
        },
    )
