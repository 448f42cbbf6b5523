"""The cash report as CSV and XLSX. Money stays Decimal: text in CSV, numbers written from
their Decimal text with two decimals shown in XLSX; a missing figure (no opener, closer or
drop) is empty."""

import csv
import io
from decimal import Decimal

from django.utils.translation import gettext as _

COLUMNS = [
    ("label", lambda: _("Line")),
    ("opener", lambda: _("Opener")),
    ("closer", lambda: _("Closer")),
    ("fills", lambda: _("Fills")),
    ("credits", lambda: _("Credits")),
    ("drop", lambda: _("Drop (counted)")),
    ("registered", lambda: _("Cash-ins to the cash box")),
    ("drop_difference", lambda: _("Drop difference")),
    ("pit_cash", lambda: _("Cash to the pit desk")),
    ("win", lambda: _("Win")),
    ("hold", lambda: _("Hold, %")),
    ("rounds", lambda: _("Rounds")),
    ("hands", lambda: _("Hands")),
    ("hands_per_hour", lambda: _("Hands per hour")),
    ("average_bet", lambda: _("Average bet")),
    ("theoretical", lambda: _("Theoretical win")),
    ("game_win", lambda: _("Result of the rounds")),
    ("tips", lambda: _("Tips")),
]


def _rows(report: dict):
    for line in report["lines"]:
        yield line.row()
    total = report["total"].row()
    total["label"] = _("Total")
    yield total


def report_csv(report: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([title() for _key, title in COLUMNS])
    for row in _rows(report):
        writer.writerow(["" if row[key] is None else str(row[key]) for key, _t in COLUMNS])
    return out.getvalue()


def report_xlsx(report: dict) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = f"{report['first']:%Y-%m-%d}"[:31]
    sheet.append([title() for _key, title in COLUMNS])
    for row in _rows(report):
        sheet.append([row[key] for key, _t in COLUMNS])
    for column in sheet.iter_cols(min_row=2, min_col=2):
        for cell in column:
            if isinstance(cell.value, Decimal):
                cell.number_format = "0.00"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
