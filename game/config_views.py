"""The pit boss's table configuration screen (``game.configuration`` says why it is here)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from game.configuration import house_edge, preset_edges, table_configure
from game.forms import TableConfigForm
from staff.access import role_required
from staff.roles import Role
from tables.models import Table
from tables.selectors import table_history


def _percent(edge):
    return None if edge is None else 100 * edge


@role_required(Role.PIT_BOSS)
def table_config(request, table_id):
    """Configure a table (only while it is closed): limits, rule set, chip set, par float."""
    table = get_object_or_404(Table, pk=table_id)
    form = TableConfigForm(request.POST or None, instance=Table.objects.get(pk=table.pk))
    if request.method == "POST" and form.is_valid():
        try:
            table_configure(table=table, changed_by=request.user, **form.settings())
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, _("The table's configuration is saved."))
            return redirect("game:table_config", table_id=table.pk)
    return render(
        request,
        "tables/config.html",
        {
            "table": table,
            "form": form,
            "edge": _percent(house_edge(table.rules)),
            "preset_edges": [(name, _percent(edge)) for name, edge in preset_edges()],
            "history": table_history(table=table),
            "editable": table.status == Table.Status.CLOSED,
        },
    )


def _form_errors(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            target = {"rules": "overrides", "chip_denominations": "chips", "par_float": "par"}
            name = target.get(field, field)
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)
