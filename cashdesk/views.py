"""Screens of the cash desk. Thin: read the form, call a service or a selector, render.
A refused input re-renders the page with the reason and status 400; nothing is saved."""

import datetime as dt

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cashdesk import exports, selectors, services
from cashdesk.charts import bars_chart
from cashdesk.gaming import gaming_day_of
from cashdesk.models import CashIn, GamingDayClose, Resolution, Slip
from cashdesk.publish import duty_context, duty_sequence
from staff.access import role_required
from staff.roles import Role, TableRole
from tables.access import table_required
from tables.models import Table

TABLE_PEOPLE = (
    TableRole.DEALING_CROUPIER,
    TableRole.OBSERVING_CROUPIER,
    TableRole.INSPECTOR,
    Role.DUTY_ADMINISTRATOR,
    Role.PIT_BOSS,
)
REPORT_PEOPLE = (Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS)


def _today() -> dt.date:
    return gaming_day_of(timezone.now())


def _error_text(error: ValidationError) -> str:
    return " ".join(str(m) for m in error.messages)


def _denominations(prefix: str, post) -> dict:
    """Form fields named ``<prefix>-<denomination>`` as {denomination: value}."""
    return {k[len(prefix) + 1 :]: v for k, v in post.items() if k.startswith(prefix + "-")}


# -- a table's cash screen ---------------------------------------------------------------


def _table_page(request, table, table_role, *, error: str = "", status: int = 200):
    from django.conf import settings

    day = _today()
    context = {
        "table": table,
        "table_role": table_role,
        "gaming_day": day,
        "error": error,
        "notes": settings.CASH_NOTE_DENOMINATIONS,
        "chips": table.chip_denominations,
        "destinations": CashIn.Destination.choices,
        "slip_kinds": Slip.Kind.choices,
        "awaiting": selectors.awaiting_recount(table=table),
        "inventory": selectors.inventory_checks(table=table, gaming_day=day),
        **selectors.table_records(table=table, gaming_day=day),
    }
    if error:
        messages.error(request, error)
    return render(request, "cashdesk/table.html", context, status=status)


@table_required(*TABLE_PEOPLE)
def table_cash(request, table, table_role):
    """Cash-ins, tips, recounts and slips of one table, by the viewer's role."""
    return _table_page(request, table, table_role)


def _act(request, table, table_role, action, done: str):
    try:
        action()
    except ValidationError as error:
        return _table_page(request, table, table_role, error=_error_text(error), status=400)
    messages.success(request, done)
    return redirect("cashdesk:table", table_id=table.pk)


@require_POST
@table_required(TableRole.DEALING_CROUPIER)
def cash_in(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        lambda: services.cash_in_record(
            table=table,
            actor=request.user,
            notes=_denominations("note", request.POST),
            chips=_denominations("chip", request.POST),
            player_card=request.POST.get("player_card", ""),
            destination=request.POST.get("destination", CashIn.Destination.CASH_BOX),
        ),
        _("Cash-in entered: the observing croupier recounts it."),
    )


@require_POST
@table_required(TableRole.DEALING_CROUPIER)
def tip(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        lambda: services.tip_record(
            table=table,
            actor=request.user,
            box=request.POST.get("box"),
            amount=request.POST.get("amount"),
        ),
        _("Tip recorded."),
    )


def _object(model, table, pk):
    try:
        return model.objects.get(table=table, pk=int(pk))
    except (TypeError, ValueError, model.DoesNotExist):
        raise ValidationError(_("No such record at this table."))


@require_POST
@table_required(TableRole.OBSERVING_CROUPIER)
def recount(request, table, table_role):
    def action():
        row = _object(CashIn, table, request.POST.get("cash_in"))
        return services.cash_in_recount(
            cash_in=row, actor=request.user, notes=_denominations("note", request.POST)
        )

    return _act(request, table, table_role, action, _("Recount recorded."))


@require_POST
@table_required(TableRole.INSPECTOR)
def slip_request(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        lambda: services.slip_request(
            table=table,
            actor=request.user,
            kind=request.POST.get("kind", ""),
            counts_by_denomination=_denominations("chip", request.POST),
        ),
        _("Slip requested."),
    )


@require_POST
@table_required(TableRole.DEALING_CROUPIER, TableRole.OBSERVING_CROUPIER)
def slip_receive(request, table, table_role):
    def action():
        return services.slip_receive(
            slip=_object(Slip, table, request.POST.get("slip")), actor=request.user
        )

    return _act(request, table, table_role, action, _("Slip signed."))


@require_POST
@table_required(TableRole.INSPECTOR, Role.DUTY_ADMINISTRATOR)
def slip_void(request, table, table_role):
    def action():
        return services.slip_void(
            slip=_object(Slip, table, request.POST.get("slip")),
            actor=request.user,
            reason=request.POST.get("reason", ""),
        )

    return _act(request, table, table_role, action, _("Void signed."))


# -- the duty administrator -----------------------------------------------------------------


def _duty_page(request, *, error: str = "", status: int = 200):
    if error:
        messages.error(request, error)
    return render(
        request,
        "cashdesk/duty_home.html",
        duty_context(seq=duty_sequence()),
        status=status,
    )


@role_required(Role.DUTY_ADMINISTRATOR)
def duty_home(request):
    """Live cash-in totals per table, slips to issue, open exceptions, reports."""
    return _duty_page(request)


def _duty_act(request, action, done: str):
    try:
        action()
    except ValidationError as error:
        return _duty_page(request, error=_error_text(error), status=400)
    messages.success(request, done)
    return redirect("cashdesk:duty_home")


@require_POST
@role_required(Role.DUTY_ADMINISTRATOR)
def slip_issue(request):
    def action():
        try:
            slip = Slip.objects.select_related("table").get(pk=int(request.POST.get("slip")))
        except (TypeError, ValueError, Slip.DoesNotExist):
            raise ValidationError(_("No such slip."))
        return services.slip_issue(slip=slip, actor=request.user)

    return _duty_act(request, action, _("Slip issued."))


@require_POST
@role_required(Role.DUTY_ADMINISTRATOR)
def resolve(request):
    def action():
        kind = request.POST.get("kind")
        if kind not in Resolution.Kind.values:
            raise ValidationError(_("No such exception."))
        try:
            object_id = int(request.POST.get("object_id"))
        except (TypeError, ValueError):
            raise ValidationError(_("No such exception."))
        return services.exception_resolve(
            kind=kind, object_id=object_id, actor=request.user, note=request.POST.get("note", "")
        )

    return _duty_act(request, action, _("Exception resolved."))


def _day(value) -> dt.date:
    try:
        return dt.date.fromisoformat(value or "")
    except ValueError:
        raise ValidationError(_("“%(value)s” is not a date.") % {"value": value or ""})


@require_POST
@role_required(Role.DUTY_ADMINISTRATOR)
def day_close(request):
    return _duty_act(
        request,
        lambda: services.gaming_day_close(
            gaming_day=_day(request.POST.get("gaming_day")), actor=request.user
        ),
        _("Gaming day closed."),
    )


@role_required(Role.DUTY_ADMINISTRATOR)
def drop(request):
    """Enter (or correct, with a note) the counted drop of a table for a gaming day."""
    error, status = "", 200
    if request.method == "POST":
        try:
            raw = str(request.POST.get("table") or "")
            table_id = int(raw) if raw.isascii() and raw.isdigit() else None
            table = Table.objects.filter(pk=table_id).first() if table_id else None
            if table is None:
                raise ValidationError(_("Choose a table."))
            services.drop_enter(
                table=table,
                gaming_day=_day(request.POST.get("gaming_day")),
                amount=request.POST.get("amount"),
                actor=request.user,
                note=request.POST.get("note", ""),
            )
        except ValidationError as e:
            error, status = _error_text(e), 400
            messages.error(request, error)
        else:
            messages.success(request, _("Counted drop entered."))
            return redirect(reverse("cashdesk:drop") + f"?day={request.POST['gaming_day']}")
    day = request.GET.get("day") or request.POST.get("gaming_day") or _today().isoformat()
    try:
        day_value = _day(day)
    except ValidationError:
        day_value = _today()
    report = selectors.cash_report(first=day_value, last=day_value)
    return render(
        request,
        "cashdesk/drop.html",
        {"tables": Table.objects.order_by("number"), "gaming_day": day_value, "report": report},
        status=status,
    )


# -- reports --------------------------------------------------------------------------------


def _period(request) -> tuple[dt.date, dt.date, str]:
    """``?day=`` (one gaming day), ``?month=YYYY-MM``, or ``?first=&last=``."""
    group = request.GET.get("group", "table")
    if group not in ("table", "pit", "day", "shift"):
        group = "table"
    month = request.GET.get("month")
    if month:
        try:
            first = dt.date.fromisoformat(month + "-01")
        except ValueError:
            first = _today().replace(day=1)
        nxt = (first + dt.timedelta(days=32)).replace(day=1)
        return first, nxt - dt.timedelta(days=1), group if group != "shift" else "day"
    try:
        first = _day(request.GET.get("first") or request.GET.get("day") or _today().isoformat())
        last = _day(request.GET.get("last") or first.isoformat())
    except ValidationError:
        first = last = _today()
    if last < first:
        first, last = last, first
    return first, last, group


def _report_context(request) -> dict:
    first, last, group = _period(request)
    report = selectors.cash_report(
        first=first, last=last, group="table" if group == "shift" else group
    )
    context = {"report": report, "group": group, "first": first, "last": last}
    context["query"] = request.GET.urlencode()
    if group == "shift":
        context["shifts"] = selectors.shift_report(gaming_day=first)
    if first == last:
        hours = selectors.hourly(gaming_day=first)
        context["hour_chart"] = bars_chart(
            [f"{h['hour']:02d}" for h in hours],
            [
                (_("Win (settled rounds)"), [h["win"] for h in hours]),
                (_("Drop (registered)"), [h["drop"] for h in hours]),
            ],
            title=_("Win and drop by hour"),
        )
        context["exceptions"] = selectors.open_exceptions(gaming_day=first)
        context["closed"] = GamingDayClose.objects.filter(gaming_day=first).first()
    per_table = selectors.cash_report(first=first, last=last, group="table")["lines"]
    context["hold_chart"] = bars_chart(
        [line.label for line in per_table],
        [(_("Hold, %"), [line.hold or 0 for line in per_table])],
        title=_("Hold per table"),
    )
    return context


@role_required(*REPORT_PEOPLE)
def report(request):
    """The cash report by table, pit, shift or gaming day, for a day or a month."""
    return render(request, "cashdesk/report.html", _report_context(request))


@role_required(*REPORT_PEOPLE)
def report_print(request):
    return render(request, "cashdesk/report_print.html", _report_context(request))


@role_required(*REPORT_PEOPLE)
def export(request):
    """The report lines as CSV (default) or XLSX (``?format=xlsx``)."""
    first, last, group = _period(request)
    report = selectors.cash_report(
        first=first, last=last, group="table" if group == "shift" else group
    )
    name = f"cash-report-{first.isoformat()}-{last.isoformat()}"
    if request.GET.get("format") == "xlsx":
        response = HttpResponse(
            exports.report_xlsx(report),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
        return response
    response = HttpResponse(exports.report_csv(report), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


@role_required(*REPORT_PEOPLE)
def records(request):
    """The records behind one report line."""
    first, last, _group = _period(request)
    table = request.GET.get("table")
    pit = request.GET.get("pit")
    table_id = int(table) if table and table.isascii() and table.isdigit() else None
    pit_id = int(pit) if pit and pit.isascii() and pit.isdigit() else None
    return render(
        request,
        "cashdesk/records.html",
        {
            "first": first,
            "last": last,
            "table": get_object_or_404(Table, pk=table_id) if table_id else None,
            **selectors.records(first=first, last=last, table=table_id, pit=pit_id),
        },
    )
