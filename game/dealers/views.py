"""The dealer's own figures for the duty administrator and the pit boss: per dealer and
shift, for a gaming day or a month, on screen and as XLSX or CSV like the cash reports
(game.dealers.figures; docs/cashdesk.md, "The dealer's figures")."""

from django.http import HttpResponse
from django.shortcuts import render

from cashdesk import exports
from cashdesk.columns import DEALER_COLUMNS, dealer_cells
from cashdesk.forms import ReportForm
from game.dealers.figures import dealer_figures
from staff.access import permission_required


def _refused(request, form):
    """A period that does not read: the page says why, with status 400."""
    return render(
        request, "game/dealers.html", {"error": form.error_text(), "form": form}, status=400
    )


@permission_required("game.dealer_figures")
def dealers(request):
    """Every dealer's figures per gaming day and shift, and his totals for the period."""
    form = ReportForm(request.GET)
    if not form.is_valid():
        return _refused(request, form)
    data = form.cleaned_data
    report = dealer_figures(first=data["first"], last=data["last"])
    query = request.GET.copy()
    query.pop("format", None)
    return render(
        request,
        "game/dealers.html",
        {
            "form": form,
            "first": data["first"],
            "last": data["last"],
            "query": query.urlencode(),
            "columns": DEALER_COLUMNS,
            "lines": [(line, dealer_cells(line)) for line in report["lines"]],
            "dealers": [(line, dealer_cells(line)) for line in report["dealers"]],
            "total": dealer_cells(report["total"]),
        },
    )


@permission_required("game.dealer_figures")
def dealers_export(request):
    """The same figures as XLSX (the default) or CSV (``?format=csv``)."""
    form = ReportForm(request.GET)
    if not form.is_valid():
        return _refused(request, form)
    data = form.cleaned_data
    report = dealer_figures(first=data["first"], last=data["last"])
    name = f"dealer-figures-{data['first'].isoformat()}-{data['last'].isoformat()}"
    if data["format"] == "csv":
        content, kind = exports.dealers_csv(report), "csv"
        content_type = "text/csv; charset=utf-8"
    else:
        content, kind = exports.dealers_xlsx(report), "xlsx"
        content_type = exports.XLSX_TYPE
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    return response
