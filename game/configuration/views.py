"""The pit boss's table configuration screen (``game.configuration.services`` says why it is
here)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from game.configuration.forms import TableConfigForm
from game.configuration.services import house_edge, preset_edges, table_configure
from staff.access import permission_required
from tables.models import Table
from tables.selectors import table_history


def _context(table, form, rules) -> dict:
    edge = house_edge(rules) if rules is not None else None
    return {
        "table": table,
        "form": form,
        "edge": edge,
        "edge_of_saved": house_edge(table.rules),
        "preset_edges": preset_edges(),
        "history": table_history(table=table),
        "editable": table.status == Table.Status.CLOSED,
    }


@permission_required("game.table_configure")
def table_config(request, table_id):
    """Configure a table (only while it is closed): limits, rule set, chip set, par float."""
    table = get_object_or_404(Table, pk=table_id)
    instance = Table.objects.get(pk=table.pk)
    form = TableConfigForm(request.POST or None, instance=instance)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                table_configure(table=table, changed_by=request.user, **form.settings())
            except ValidationError as error:
                _form_errors(form, error)
            else:
                messages.success(request, _("The table's configuration is saved."))
                return redirect("game:table_config", table_id=table.pk)
        status = 400
        if form.data.get("preset") != form.data.get("preset_shown"):
            form = TableConfigForm.with_preset_values(request.POST, instance=instance)
            form.is_valid()
            messages.warning(
                request,
                _(
                    "The preset changed: the rules below now show its values. "
                    "Check them, then save."
                ),
            )
    rules = form.chosen_rules() if form.is_bound else table.rules
    return render(request, "tables/config.html", _context(table, form, rules), status=status)


@permission_required("game.table_configure")
def table_config_rules(request, table_id):
    """The rule fields and the house edge of the rules as chosen so far (htmx, on every
    change of the form): nothing is saved."""
    table = get_object_or_404(Table, pk=table_id)
    instance = Table.objects.get(pk=table.pk)
    if request.method != "POST":
        form = TableConfigForm(instance=instance)
        rules = table.rules
    else:
        form = TableConfigForm.with_preset_values(request.POST, instance=instance)
        form.is_valid()
        rules = form.chosen_rules()
    return render(request, "tables/config.html#rules", _context(table, form, rules))


def _form_errors(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            target = {"rules": "preset", "chip_denominations": "chips", "par_float": "par"}
            name = target.get(field, field)
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)
