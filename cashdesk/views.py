"""Screens of the cash desk. Thin: read the request through a form (cashdesk/forms.py), call
a service or a selector, render. A refused input re-renders the page with the reason, what
was typed and status 400; nothing is saved."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from cashdesk import corrections, days, exports, forms, selectors, services, slips
from cashdesk.charts import echarts_url, hold_chart, hour_chart
from cashdesk.columns import PLAY_COLUMNS, WIN_COLUMNS, legend, line_cells
from cashdesk.models import CashIn, CashInCorrection, DropCount, GamingDayClose, Slip
from cashdesk.publish import duty_context, duty_sequence
from floor.paging import page_of
from staff.access import permission_required
from staff.permissions import At, acts_at
from staff.roles import Role, TableRole
from tables.access import table_required
from tables.formats import money
from tables.models import ChipCount, Table

TABLE_PEOPLE = (
    TableRole.DEALING_CROUPIER,
    TableRole.OBSERVING_CROUPIER,
    TableRole.INSPECTOR,
    Role.DUTY_ADMINISTRATOR,
    Role.PIT_BOSS,
)
REPORT_PEOPLE = (Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS)
PAGE_SIZE = 50  # rows of a list on one page (the register, the records)
RECORDS_PAGE_SIZE = 100


def _error_text(error: ValidationError) -> str:
    return " ".join(str(m) for m in error.messages)


def _page(request, name: str, queryset, number: int, size: int = PAGE_SIZE):
    """One page of a list (``floor.paging``; the number already read by ``PageForm``)."""
    return page_of(request, queryset, name=name, number=number, size=size)


# -- a table's cash screen ---------------------------------------------------------------


def _table_page(request, table, table_role, *, failed: str = "", error: str = "", status=200):
    """The table's cash screen; after a refusal, ``failed`` names the form whose typed
    values are shown again (``request.POST``)."""
    day = forms.today()
    typed = request.POST if failed else {}
    pages = forms.PageForm(request.GET, lists=("cash_ins", "tips", "slips"))
    pages.is_valid()  # a page number that is not one shows the first page
    notes = settings.CASH_NOTE_DENOMINATIONS
    chips = table.chip_denominations or []
    records = selectors.table_records(table=table, gaming_day=day)
    context = {
        "table": table,
        "table_role": table_role,
        "may": acts_at(request.user, At(table.pk, table_role)),
        "gaming_day": day,
        "error": error,
        "failed": failed,
        "typed": typed,
        "cash_in_notes": forms.count_inputs("note", notes, typed if failed == "cash_in" else None),
        "cash_in_chips": forms.count_inputs("chip", chips, typed if failed == "cash_in" else None),
        "request_chips": forms.count_inputs("chip", chips, typed if failed == "slip" else None),
        "destinations": CashIn.Destination.choices,
        "destination": typed.get("destination") or CashIn.Destination.CASH_BOX,
        "slip_kinds": Slip.Kind.choices,
        "slip_kind": typed.get("kind") or Slip.Kind.FILL,
        "awaiting": [
            {
                "cash_in": c,
                "inputs": forms.count_inputs(
                    "note",
                    notes,
                    typed if failed == "recount" and typed.get("cash_in") == str(c.pk) else None,
                ),
            }
            for c in selectors.awaiting_recount(table=table)
        ],
        "my_recounts": selectors.recounts_by(table=table, person=request.user, gaming_day=day),
        "inventory": selectors.inventory_checks(table=table, gaming_day=day),
        # corrections of a counted figure (two people: cashdesk.corrections)
        "correct_chips": forms.count_inputs(
            "chip", chips, typed if failed == "count_correct" else None
        ),
        "correct_notes": forms.count_inputs(
            "note", notes, typed if failed == "cash_in_correct" else None
        ),
        "recounted": records["cash_ins"].exclude(status=CashIn.Status.AWAITING_RECOUNT),
        **{
            name: _page(request, name, records[name], pages.page(name))
            for name in ("cash_ins", "tips", "slips")
        },
        "slips_to_receive": records["slips"].filter(
            issued_at__isnull=False, received_at__isnull=True, voided_at__isnull=True
        ),
    }
    return render(request, "cashdesk/table.html", context, status=status)


@table_required("cashdesk.table_cash")
def table_cash(request, table, table_role):
    """Cash-ins, tips, recounts and slips of one table, by the viewer's role."""
    return _table_page(request, table, table_role)


def _act(request, table, table_role, form, name: str, action, done):
    """A form of the table's cash screen (:func:`_form_act`)."""
    return _form_act(
        request,
        form,
        name,
        action,
        done,
        page=lambda **refused: _table_page(request, table, table_role, **refused),
        back=("cashdesk:table", {"table_id": table.pk}),
    )


def _form_act(request, form, name: str, action, done, *, page, back):
    """The one way a cash-desk form acts: run ``action(cleaned_data)`` once (``_send_once``)
    when the form reads, and go ``back``; otherwise, or when the service refuses, show the
    ``page`` again with the reason and what was typed (status 400)."""
    if not form.is_valid():
        return page(failed=name, error=form.error_text(), status=400)
    try:
        _say(request, *_send_once(request, form.cleaned_data, name, action, done))
    except ValidationError as error:
        return page(failed=name, error=_error_text(error), status=400)
    view, kwargs = back
    return redirect(view, **kwargs)


def _send_once(request, data: dict, name: str, action, done) -> tuple[str, bool]:
    """Run ``action(data)`` once per the form's idempotency token (``services.submitted_once``):
    the person's message, and whether this was a repeat answered with the first result.
    A form without a token (not a money form) just runs."""
    answer = done if callable(done) else (lambda _result: done)
    if "submission" not in data:
        return str(answer(action(data))), False
    try:
        text = services.submitted_once(
            token=data["submission"],
            actor=request.user,
            kind=name,
            act=lambda: action(data),
            answer=answer,
        )
    except services.Repeated as repeat:
        return repeat.answer, True
    return text, False


def _say(request, text: str, repeated: bool) -> None:
    if repeated:
        messages.info(
            request, _("Already recorded (the form was sent twice): %(first)s") % {"first": text}
        )
    else:
        messages.success(request, text)


@require_POST
@table_required("cashdesk.cash_in")
def cash_in(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        forms.CashInForm(request.POST),
        "cash_in",
        lambda data: services.cash_in_record(
            table=table,
            actor=request.user,
            notes=data["notes"],
            chips=data["chips"],
            player_card=data["player_card"],
            destination=data["destination"],
        ),
        lambda row: (
            _(
                "Cash-in entered: the inspector takes the cash to the pit cash desk — give the "
                "chips once he has confirmed it."
            )
            if row.destination == CashIn.Destination.PIT_CASH_DESK
            else _("Cash-in entered: the observing croupier recounts it.")
        ),
    )


PENDING_ANSWER = _lazy(
    "Correction recorded: it awaits a second person's confirmation (open exceptions on the "
    "duty home); until then the report keeps the figure in force."
)


@require_POST
@table_required("cashdesk.cash_in_correct")
def cash_in_correct(request, table, table_role):
    """A correction of a cash-in's amount after the recount (two people: it waits for the
    second signature on the duty home)."""
    return _act(
        request,
        table,
        table_role,
        forms.CashInCorrectForm(request.POST),
        "cash_in_correct",
        lambda data: corrections.cash_in_correct(
            cash_in=_object(CashIn, table, data["cash_in"]),
            notes=data["notes"],
            note=data["note"],
            actor=request.user,
        ),
        PENDING_ANSWER,
    )


@require_POST
@table_required("cashdesk.chip_count_correct")
def chip_count_correct(request, table, table_role):
    """A correction of a chip count (two people: it waits for the second signature)."""
    return _act(
        request,
        table,
        table_role,
        forms.ChipCountCorrectForm(request.POST),
        "count_correct",  # (a Submission kind: at most 16 characters)
        lambda data: corrections.chip_count_correct(
            count=_object(ChipCount, table, data["count"]),
            counts=data["chips"],
            note=data["note"],
            actor=request.user,
        ),
        PENDING_ANSWER,
    )


@require_POST
@table_required("cashdesk.tip")
def tip(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        forms.TipForm(request.POST, table=table),
        "tip",
        lambda data: services.tip_record(
            table=table,
            actor=request.user,
            box=data["box"],
            amount=data["amount"],
            note=data["note"],
        ),
        _("Tip recorded: each chip knocked on the table three times, into the tip box."),
    )


def _object(model, table, pk: int):
    row = model.objects.filter(table=table, pk=pk).first()
    if row is None:
        raise ValidationError(_("No such record at this table."))
    return row


def _recounted(row: CashIn) -> str:
    """What the observer learns once his own count is signed: the dealer's figure."""
    figures = {"mine": money(row.recount_amount), "dealer": money(row.amount)}
    if row.status == CashIn.Status.CONFIRMED:
        return _("Recount recorded: your %(mine)s matches the dealer's %(dealer)s.") % figures
    return (
        _(
            "Recount recorded: your %(mine)s differs from the dealer's %(dealer)s. The "
            "inspector and the duty administrator are alerted."
        )
        % figures
    )


@require_POST
@table_required("cashdesk.recount")
def recount(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        forms.RecountForm(request.POST),
        "recount",
        lambda data: services.cash_in_recount(
            cash_in=_object(CashIn, table, data["cash_in"]),
            actor=request.user,
            notes=data["notes"],
        ),
        _recounted,
    )


@require_POST
@table_required("cashdesk.cash_in_chips")
def cash_in_chips(request, table, table_role):
    """The dealer gave the chips for a cash-in, after its recount and drop
    (docs/sources.md#cash-in)."""
    return _act(
        request,
        table,
        table_role,
        forms.CashInConfirmForm(request.POST),
        "cash_in_chips",
        lambda data: services.cash_in_chips_give(
            cash_in=_object(CashIn, table, data["cash_in"]), actor=request.user
        ),
        _("Chips given: recorded."),
    )


@require_POST
@table_required("cashdesk.cash_in_confirm")
def cash_in_confirm(request, table, table_role):
    """The inspector's one tap: he registers a cash-in (and takes a pit-desk one there)
    (docs/sources.md#inspector-registers-cash)."""
    return _act(
        request,
        table,
        table_role,
        forms.CashInConfirmForm(request.POST),
        "cash_in_confirm",
        lambda data: services.cash_in_inspector_confirm(
            cash_in=_object(CashIn, table, data["cash_in"]), actor=request.user
        ),
        _("Cash-in registered."),
    )


@require_POST
@table_required("cashdesk.slip_request")
def slip_request(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        forms.SlipRequestForm(request.POST),
        "slip",
        lambda data: slips.slip_request(
            table=table,
            actor=request.user,
            kind=data["kind"],
            counts_by_denomination=data["chips"],
        ),
        _("Slip requested."),
    )


@require_POST
@table_required("cashdesk.slip_receive")
def slip_receive(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        forms.SlipForm(request.POST),
        "receive",
        lambda data: slips.slip_receive(
            slip=_object(Slip, table, data["slip"]), actor=request.user
        ),
        _("Slip signed."),
    )


@require_POST
@table_required("cashdesk.slip_void")
def slip_void(request, table, table_role):
    return _act(
        request,
        table,
        table_role,
        forms.SlipVoidForm(request.POST),
        "void",
        lambda data: slips.slip_void(
            slip=_object(Slip, table, data["slip"]), actor=request.user, reason=data["reason"]
        ),
        _("Void signed."),
    )


# -- the duty administrator -----------------------------------------------------------------

EXCEPTIONS_SHOWN = 200  # the duty home lists this many open exceptions, oldest day first


def _duty_page(request, *, failed: str = "", error: str = "", status: int = 200):
    """The duty home; its live part is the same as the one pushed (``cashdesk.publish``), with
    what was typed into a refused form given back. A refusal is said once, in the page's
    error block (not in the messages above it too)."""
    context = duty_context(seq=duty_sequence())
    context.update(failed=failed, typed=request.POST if failed else {}, error=error)
    return render(request, "cashdesk/duty_home.html", context, status=status)


@permission_required("cashdesk.duty_desk")
def duty_home(request):
    """Live cash-in totals per table, slips to issue, open exceptions, reports."""
    return _duty_page(request)


def _duty_act(request, form, name: str, action, done):
    """A form of the duty home (:func:`_form_act`)."""
    return _form_act(
        request,
        form,
        name,
        action,
        done,
        page=lambda **refused: _duty_page(request, **refused),
        back=("cashdesk:duty_home", {}),
    )


def _slip(pk: int) -> Slip:
    slip = Slip.objects.select_related("table").filter(pk=pk).first()
    if slip is None:
        raise ValidationError(_("No such slip."))
    return slip


@require_POST
@permission_required("cashdesk.duty_desk")
def slip_issue(request):
    return _duty_act(
        request,
        forms.SlipIssueForm(request.POST),
        "issue",
        lambda data: slips.slip_issue(slip=_slip(data["slip"]), actor=request.user),
        _("Slip issued."),
    )


@require_POST
@permission_required("cashdesk.duty_desk")
def resolve(request):
    return _duty_act(
        request,
        forms.ResolveForm(request.POST),
        "resolve",
        lambda data: days.exception_resolve(
            kind=data["kind"],
            object_id=data["object_id"],
            actor=request.user,
            note=data["note"],
            request=request,
            second=data["second"],
            second_password=data["second_password"],
            state=data["state"],
        ),
        _("Exception resolved."),
    )


def _correction_confirm(request, data: dict):
    """The service that confirms the correction ``data`` names (its kind and id)."""
    signature = {
        "actor": request.user,
        "request": request,
        "second": data["second"],
        "second_password": data["second_password"],
    }
    model, confirm, name = CONFIRMS[data["kind"]]
    row = model.objects.filter(pk=data["object_id"]).first()
    if row is None:
        raise ValidationError(_("No such correction."))
    return confirm(**{name: row}, **signature)


CONFIRMS = {
    "drop": (DropCount, corrections.drop_correction_confirm, "drop"),
    "chip_count": (ChipCount, corrections.chip_count_correction_confirm, "count"),
    "cash_in_correction": (
        CashInCorrection,
        corrections.cash_in_correction_confirm,
        "correction",
    ),
}


@require_POST
@permission_required("cashdesk.duty_desk")
def correction_confirm(request):
    """A correction of a counted figure confirmed by a second person with his password."""
    return _duty_act(
        request,
        forms.CorrectionConfirmForm(request.POST),
        "confirm",
        lambda data: _correction_confirm(request, data),
        _("Correction confirmed by a second person: it is the figure in force now."),
    )


@require_POST
@permission_required("cashdesk.duty_desk")
def day_close(request):
    return _duty_act(
        request,
        forms.DayCloseForm(request.POST),
        "close",
        lambda data: days.gaming_day_close(
            gaming_day=data["gaming_day"],
            actor=request.user,
            request=request,
            waiver_reason=data["waiver_reason"],
            password=data["password"],
            second=data["second"],
            second_password=data["second_password"],
        ),
        lambda close: (
            _("Gaming day closed with a waiver signed by two people.")
            if close.waiver_reason
            else _("Gaming day closed.")
        ),
    )


@require_POST
@permission_required("cashdesk.duty_desk")
def day_reopen(request):
    """Reopen a closed gaming day: two signatures with passwords and a reason."""
    return _duty_act(
        request,
        forms.DayReopenForm(request.POST),
        "reopen",
        lambda data: days.gaming_day_reopen(
            request=request,
            gaming_day=data["gaming_day"],
            actor=request.user,
            password=data["password"],
            second=data["second"],
            second_password=data["second_password"],
            reason=data["reason"],
        ),
        _("Gaming day reopened."),
    )


@permission_required("cashdesk.duty_desk")
def drop(request):
    """Enter (or correct, with a note) the counted drop of a table for a gaming day."""
    if request.method == "POST":
        form = forms.DropForm(request.POST)
        try:
            if not form.is_valid():
                raise ValidationError(form.error_text())
            data = form.cleaned_data
            said = _send_once(
                request,
                data,
                "drop",
                lambda data: services.drop_enter(
                    table=data["table"],
                    gaming_day=data["gaming_day"],
                    amount=data["amount"],
                    actor=request.user,
                    note=data["note"],
                ),
                lambda drop: PENDING_ANSWER if drop.correction else _("Counted drop entered."),
            )
        except ValidationError as e:
            day = form.cleaned_data.get("gaming_day") or forms.today()
            return _drop_page(request, day, error=_error_text(e), typed=request.POST)
        _say(request, *said)
        return redirect(reverse("cashdesk:drop") + f"?day={data['gaming_day'].isoformat()}")
    day_form = forms.DropDayForm(request.GET)
    if not day_form.is_valid():
        return _drop_page(request, forms.today(), error=day_form.error_text())
    return _drop_page(request, day_form.cleaned_data["day"])


def _drop_page(request, day, *, error: str = "", typed=None):
    report = selectors.cash_report(first=day, last=day)
    return render(
        request,
        "cashdesk/drop.html",
        {
            "tables": Table.objects.order_by("number"),
            "gaming_day": day,
            "error": error,
            "typed": typed or {},
            **_report_table(report, group="table"),
        },
        status=400 if error else 200,
    )


# -- reports --------------------------------------------------------------------------------


def _report_table(report: dict, *, group: str) -> dict:
    """The report's lines as the two column groups of the screen (and of the print view)."""
    lines = [
        {
            "label": line.label,
            "key": line.key,
            "win": line_cells(line, WIN_COLUMNS),
            "play": line_cells(line, PLAY_COLUMNS),
        }
        for line in report["lines"]
    ]
    return {
        "report": report,
        "group": group,
        "lines": lines,
        "total": {
            "win": line_cells(report["total"], WIN_COLUMNS),
            "play": line_cells(report["total"], PLAY_COLUMNS),
        },
        "win_columns": WIN_COLUMNS,
        "play_columns": PLAY_COLUMNS,
        "legend": legend(),
    }


def _refused(request, form, template: str = "cashdesk/report.html"):
    """A report request that does not read: the page says why, with status 400."""
    error = form.error_text()
    return render(request, template, {"error": error, "form": form}, status=400)


def _report_context(request, data: dict) -> dict:
    first, last, group = data["first"], data["last"], data["group"]
    by = "table" if group == "shift" else group
    report = selectors.cash_report(first=first, last=last, group=by)
    context = {"first": first, "last": last, **_report_table(report, group=group)}
    query = request.GET.copy()
    query.pop("format", None)
    context["query"] = query.urlencode()
    context["echarts"] = echarts_url()
    if group == "shift":
        context["shifts"] = selectors.shift_report(gaming_day=first)
    if first == last:
        context["hour_chart"] = hour_chart(selectors.hourly(gaming_day=first))
        context["exceptions"] = selectors.open_exceptions(gaming_day=first)
        context["closed"] = GamingDayClose.objects.filter(
            gaming_day=first, reopened_at__isnull=True
        ).first()
    per_table = (
        report["lines"]
        if by == "table"
        else selectors.cash_report(first=first, last=last, group="table")["lines"]
    )
    context["hold_chart"] = hold_chart(per_table)
    return context


@permission_required("cashdesk.reports")
def report(request):
    """The cash report by table, pit, shift or gaming day, for a day or a month."""
    form = forms.ReportForm(request.GET)
    if not form.is_valid():
        return _refused(request, form)
    context = _report_context(request, form.cleaned_data)
    return render(request, "cashdesk/report.html", {**context, "form": form})


@permission_required("cashdesk.reports")
def report_print(request):
    form = forms.ReportForm(request.GET)
    if not form.is_valid():
        return _refused(request, form)
    return render(
        request, "cashdesk/report_print.html", _report_context(request, form.cleaned_data)
    )


def _download(content: bytes, name: str, kind: str) -> HttpResponse:
    content_type = exports.XLSX_TYPE if kind == "xlsx" else "text/csv; charset=utf-8"
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    return response


@permission_required("cashdesk.reports")
def export(request):
    """The report lines as XLSX (default) or CSV (``?format=csv``)."""
    form = forms.ReportForm(request.GET)
    if not form.is_valid():
        return _refused(request, form)
    data = form.cleaned_data
    group = "table" if data["group"] == "shift" else data["group"]
    report = selectors.cash_report(first=data["first"], last=data["last"], group=group)
    name = f"cash-report-{data['first'].isoformat()}-{data['last'].isoformat()}"
    if data["format"] == "csv":
        return _download(exports.report_csv(report), name, "csv")
    return _download(exports.report_xlsx(report), name, "xlsx")


def _records(data: dict) -> dict:
    table, pit = data["table"], data["pit"]
    return selectors.records(
        first=data["first"],
        last=data["last"],
        table=table.pk if table else None,
        pit=pit.pk if pit else None,
    )


@permission_required("cashdesk.reports")
def records(request):
    """The records behind one report line, a page of each list at a time."""
    form = forms.RecordsForm(request.GET)
    pages = forms.PageForm(request.GET, lists=exports.RECORD_LISTS)
    for checked in (form, pages):
        if not checked.is_valid():
            return _refused(request, checked)
    data = form.cleaned_data
    found = _records(data)
    query = request.GET.copy()
    for name in exports.RECORD_LISTS:
        query.pop(f"{name}_page", None)
    query.pop("format", None)
    return render(
        request,
        "cashdesk/records.html",
        {
            "first": data["first"],
            "last": data["last"],
            "table": data["table"],
            "pit": data["pit"],
            "query": query.urlencode(),
            "rounds": found["rounds"],
            **{
                name: _page(request, name, found[name], pages.page(name), RECORDS_PAGE_SIZE)
                for name in exports.RECORD_LISTS
            },
        },
    )


@permission_required("cashdesk.reports")
def records_export(request):
    """Every record behind a report line: XLSX (a sheet per list, the default) or one
    list as CSV (``?format=csv&list=cash_ins|tips|slips|drops``)."""
    form = forms.RecordsExportForm(request.GET)
    if not form.is_valid():
        return _refused(request, form)
    data = form.cleaned_data
    found = _records(data)
    file = f"cash-records-{data['first'].isoformat()}-{data['last'].isoformat()}"
    if data["format"] == "csv":
        name = data["list"]
        return _download(exports.records_csv(found, name=name), f"{file}-{name}", "csv")
    return _download(exports.records_xlsx(found), file, "xlsx")
