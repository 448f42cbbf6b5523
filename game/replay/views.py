"""Round replay and the search for rounds: the inspector (their tables) and the duty
administrator (every table)."""

from django import forms
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from floor.forms import AmountField
from floor.parsing import whole_number
from game import selectors
from game.models import Round
from game.replay import replay_steps, step_view
from staff.access import permission_required
from staff.roles import Role
from tables.models import Table
from tables.selectors import inspector_tables

PAGE_SIZE = 25


def replay_tables(user):
    """The tables whose rounds ``user`` may replay."""
    if user.has_role(Role.DUTY_ADMINISTRATOR):
        return Table.objects.order_by("number")
    return inspector_tables(user=user)


class MomentField(forms.DateTimeField):
    """A date and time from 2000 to 2099: a far one (0001, 9999) is a typing error or a
    crafted request, refused in words before the time zone arithmetic overflows."""

    def to_python(self, value):
        message = _("Choose a time from 2000 to 2099.")
        try:
            moment = super().to_python(value)
        except OverflowError:
            raise ValidationError(message, code="out_of_range")
        if moment is not None and not 2000 <= moment.year <= 2099:
            raise ValidationError(message, code="out_of_range")
        return moment


class RoundSearchForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), required=False, label=_("Table"))
    opened_from = MomentField(
        required=False,
        label=_("Opened from"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    opened_to = MomentField(
        required=False,
        label=_("Opened until"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    min_total_bet = AmountField(required=False, positive=False, label=_("Total bet at least"))
    min_result = AmountField(
        required=False, positive=False, label=_("Result at least (won or lost)")
    )
    box = forms.IntegerField(required=False, min_value=1, max_value=9, label=_("Box"))
    alert = forms.BooleanField(required=False, label=_("With an alert during the round"))

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = tables


@permission_required("game.replay")
def replay_search(request):
    """Rounds by table, time, amount, box and alert, newest first, a page at a time."""
    tables = replay_tables(request.user)
    form = RoundSearchForm(request.GET or None, tables=tables)
    page = None
    status = 200
    if not request.GET:
        rows = selectors.rounds_search(tables=tables)
    elif form.is_valid():
        data = form.cleaned_data
        rows = selectors.rounds_search(
            tables=tables,
            table_id=data["table"].pk if data["table"] else None,
            opened_from=data["opened_from"],
            opened_to=data["opened_to"],
            min_total_bet=data["min_total_bet"],
            min_result=data["min_result"],
            box=data["box"],
            with_alert=data["alert"],
        )
    else:
        rows, status = None, 400
    if rows is not None:
        page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "game/replay_search.html",
        {"form": form, "page": page, "query": query.urlencode()},
        status=status,
    )


@permission_required("game.replay")
def replay(request, round_id: int):
    """One round from its event log: each step (who, what, when) and the table after it."""
    round_row = get_object_or_404(Round.objects.select_related("table", "shoe"), pk=round_id)
    if not replay_tables(request.user).filter(pk=round_row.table_id).exists():
        raise PermissionDenied
    steps, state_after = replay_steps(round_row)
    current = whole_number(request.GET.get("step", len(steps)))
    current = len(steps) if current is None else min(max(current, 1), len(steps))
    step = steps[current - 1]
    view = step_view(round_row, state_after(current - 1), step["version"])
    return render(
        request,
        "game/replay.html",
        {
            "round": round_row,
            "table": round_row.table,
            "steps": steps,
            "step": step,
            "current": current,
            "previous": current - 1 if current > 1 else None,
            "next": current + 1 if current < len(steps) else None,
            "live_html": render_to_string("game/live.html#live", view),
        },
    )
