from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from staff.access import role_required, table_required
from staff.roles import Role, TableRole
from staff.selectors import current_table_for, inspector_tables


def _to_table_screen(request, role: str, url_name: str, heading: str):
    table = current_table_for(user=request.user, role=role)
    if table is None:
        return render(request, "staff/no_assignment.html", {"heading": heading})
    return redirect(url_name, table_id=table.pk)


@role_required(Role.DEALING_CROUPIER)
def dealer_home(request):
    """The dealing croupier lands on the tablet of the table they are assigned to."""
    return _to_table_screen(
        request, TableRole.DEALING_CROUPIER, "game:dealer", _("Dealing croupier")
    )


@role_required(Role.OBSERVING_CROUPIER)
def observer_home(request):
    return _to_table_screen(
        request, TableRole.OBSERVING_CROUPIER, "game:observer", _("Observing croupier")
    )


@role_required(Role.INSPECTOR)
def inspector_home(request):
    """One live tile per table this inspector oversees."""
    return render(
        request, "game/inspector_home.html", {"tables": inspector_tables(user=request.user)}
    )


@table_required(TableRole.DEALING_CROUPIER)
def dealer(request, table, table_role):
    return render(request, "game/dealer.html", {"table": table, "table_role": table_role})


@table_required(
    TableRole.OBSERVING_CROUPIER, TableRole.INSPECTOR, Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS
)
def observer(request, table, table_role):
    return render(request, "game/observer.html", {"table": table, "table_role": table_role})
