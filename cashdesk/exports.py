"""The cash report and its records as XLSX (the default download) and CSV.

* Columns: the report's (``cashdesk.columns``), in the order the screen shows them.
* Numbers stay numbers: XLSX number cells (money with two decimals shown, a negative amount
  is a negative number); CSV numbers without thousands separators. Money stays Decimal.
* CSV is for the spreadsheet of the person's language: UTF-8 with a BOM (so Excel reads the
  Cyrillic), and in Russian the list separator ``;`` with a decimal comma (what Russian
  Excel expects); in English ``,`` with a decimal point.
* No text cell can become a formula: a text that starts with ``= + - @``, a tab or a
  carriage return is written with a leading apostrophe (OWASP's CSV injection advice).
"""

import csv
import io
from decimal import ROUND_HALF_UP, Decimal

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cashdesk.columns import DEALER_COLUMNS, FIGURES, LABEL_TITLE, legend

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
XLSX_FORMATS = {"money": "#,##0.00", "count": "#,##0", "ratio": "0.0", "percent": "0.00"}
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def safe_text(value) -> str:
    """A text cell that a spreadsheet shows as text, never runs as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def _russian() -> bool:
    return (get_language() or "").startswith("ru")


def _csv_number(value, places: int | None = None) -> str:
    """A figure as a CSV cell: no thousands separator, the person's decimal mark and, for a
    report column, its own decimals (``0,00`` for money, ``0`` for a count: never both)."""
    if value is None:
        return ""
    if places is not None:
        value = Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = str(value)
    return text.replace(".", ",") if _russian() else text


def _report_rows(report: dict):
    """(label, {key: value}, pending) for every line and the total; ``pending``: the titles
    of its figures whose correction awaits a second signature (the screen marks those cells;
    an export says it in its last column)."""
    for line in report["lines"]:
        yield line.label, line.row(), _pending(line)
    yield _("Total"), report["total"].row(), _pending(report["total"])


def _pending(figures) -> str:
    keys = getattr(figures, "pending", set())
    return ", ".join(str(c.title) for c in FIGURES if c.key in keys)


def _header() -> list[str]:
    return [str(LABEL_TITLE)] + [str(c.title) for c in FIGURES] + [_("Awaiting confirmation")]


def report_csv(report: dict) -> bytes:
    return _csv(
        _header(),
        (
            [safe_text(label)]
            + [_csv_number(row[c.key], c.places) for c in FIGURES]
            + [safe_text(pending)]
            for label, row, pending in _report_rows(report)
        ),
    )


def _csv(header: list[str], rows) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if _russian() else ",", lineterminator="\r\n")
    writer.writerow([safe_text(h) for h in header])
    writer.writerows(rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def report_xlsx(report: dict) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    book = Workbook()
    sheet = book.active
    sheet.title = f"{report['first']:%Y-%m-%d}"
    sheet.append(_header())
    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    for label, row, pending in _report_rows(report):
        sheet.append([_text_cell(label)] + [row[c.key] for c in FIGURES] + [_text_cell(pending)])
        for column, cell in zip(FIGURES, sheet[sheet.max_row][1:-1], strict=True):
            cell.number_format = XLSX_FORMATS[column.kind]
    for cell in sheet[sheet.max_row]:
        cell.font = Font(bold=True)
    sheet.append([])
    sheet.append([_text_cell(legend())])
    sheet.freeze_panes = "B2"
    sheet.column_dimensions["A"].width = 18
    for index in range(2, len(FIGURES) + 3):
        sheet.column_dimensions[sheet.cell(row=1, column=index).column_letter].width = 14
    return _save(book)


def _text_cell(value):
    """A text for openpyxl: neutralised, so it is stored as a string, not a formula."""
    return safe_text(value)


def _save(book) -> bytes:
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# -- the records behind a report line -------------------------------------------------------


def _record_lists() -> list[tuple[str, str, list]]:
    """(list name, sheet title, [(column title, kind, getter)]) of each list of records."""
    return [
        (
            "cash_ins",
            _("Cash-ins"),
            [
                (_("Entered at"), "time", lambda c: c.entered_at),
                (_("Table"), "text", lambda c: str(c.table)),
                (_("Cash"), "money", lambda c: c.amount),
                (_("Chips given"), "money", lambda c: c.chips_total),
                (_("Destination"), "text", lambda c: c.get_destination_display()),
                (_("Player card"), "text", lambda c: c.player_card),
                (_("Entered by"), "text", lambda c: c.entered_by.display_name),
                (_("Recount"), "money", lambda c: c.recount_amount),
                (_("Recounted by"), "text", lambda c: _name(c.recounted_by)),
                (_("Status"), "text", lambda c: c.get_status_display()),
            ],
        ),
        (
            "tips",
            _("Tips"),
            [
                (_("Recorded at"), "time", lambda t: t.recorded_at),
                (_("Table"), "text", lambda t: str(t.table)),
                (_("Box"), "count", lambda t: t.box),
                (_("Amount"), "money", lambda t: t.amount),
                (_("Recorded by"), "text", lambda t: t.recorded_by.display_name),
            ],
        ),
        (
            "slips",
            _("Fill and credit slips"),
            [
                (_("Number"), "text", lambda s: s.label),
                (_("Table"), "text", lambda s: str(s.table)),
                (_("Kind"), "text", lambda s: s.get_kind_display()),
                (_("Total"), "money", lambda s: s.total),
                (_("Requested by"), "text", lambda s: _name(s.requested_by)),
                (_("Issued by"), "text", lambda s: _name(s.issued_by)),
                (_("Received by"), "text", lambda s: _name(s.received_by)),
                (_("Void reason"), "text", lambda s: s.void_reason),
            ],
        ),
        (
            "drops",
            _("Counted drops"),
            [
                (_("Gaming day"), "text", lambda d: d.gaming_day.isoformat()),
                (_("Table"), "text", lambda d: str(d.table)),
                (_("Amount"), "money", lambda d: d.amount),
                (_("Entered by"), "text", lambda d: _name(d.counted_by)),
                (_("Entered at"), "time", lambda d: d.entered_at),
                (_("Note"), "text", lambda d: d.note),
                (_("Correction confirmed by"), "text", lambda d: _name(d.confirmed_by)),
            ],
        ),
    ]


def _name(user) -> str:
    return "" if user is None else user.display_name


def _local(moment):
    return timezone.localtime(moment).replace(tzinfo=None)


def _records_value(kind: str, value):
    if value is None:
        return None
    if kind == "time":
        return _local(value)
    if kind == "text":
        return _text_cell(value)
    return value


def records_xlsx(records: dict) -> bytes:
    """Every list of records on its own sheet (all rows: the screen pages them)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    for name, title, columns in _record_lists():
        sheet = book.create_sheet(str(title)[:31])
        sheet.append([str(t) for t, _k, _g in columns])
        for record in records[name].iterator(chunk_size=2000):
            sheet.append(
                [_xlsx_cell(sheet, k, _records_value(k, g(record))) for t, k, g in columns]
            )
    return _save(book)


def _xlsx_cell(sheet, kind: str, value):
    from openpyxl.cell import WriteOnlyCell

    cell = WriteOnlyCell(sheet, value=value)
    if kind == "time":
        cell.number_format = "yyyy-mm-dd hh:mm:ss"
    elif kind in XLSX_FORMATS:
        cell.number_format = XLSX_FORMATS[kind]
    return cell


def records_csv(records: dict, *, name: str) -> bytes:
    """One list of records (``name``: cash_ins, tips, slips or drops) as CSV."""
    (title, columns) = next((t, c) for n, t, c in _record_lists() if n == name)
    del title

    def cell(kind, value):
        if value is None:
            return ""
        if kind == "time":
            return f"{_local(value):%Y-%m-%d %H:%M:%S}"
        if kind == "text":
            return safe_text(value)
        return _csv_number(value) if isinstance(value, Decimal) else str(value)

    return _csv(
        [str(t) for t, _k, _g in columns],
        ([cell(k, g(r)) for t, k, g in columns] for r in records[name].iterator(chunk_size=2000)),
    )


RECORD_LISTS = ("cash_ins", "tips", "slips", "drops")


# -- the dealer's figures (game.dealers.figures) -----------------------------------------------


def _dealer_label_titles() -> list[str]:
    return [_("Dealer"), _("Gaming day"), _("Shift"), _("Tables")]


def _dealer_rows(report: dict):
    """(dealer, day, shift, tables, {key: value}) for every line, each dealer's total over the
    period and the whole total."""
    for line in report["lines"]:
        yield line.dealer, line.day, line.shift, line.table_names, line.row()
    for line in report["dealers"]:
        yield line.dealer, _("Total"), None, line.table_names, line.row()
    total = report["total"]
    yield _("Total"), None, None, "", total.row()


def _rounded(value, kind: str):
    """A figure for a cell: money stays Decimal; a ratio has one decimal."""
    if value is None or kind != "ratio":
        return value
    return round(value, 1)


def dealers_csv(report: dict) -> bytes:
    return _csv(
        _dealer_label_titles() + [str(c.title) for c in DEALER_COLUMNS],
        (
            [safe_text(dealer), _day_text(day), shift or "", safe_text(tables)]
            + [_csv_number(_rounded(row[c.key], c.kind)) for c in DEALER_COLUMNS]
            for dealer, day, shift, tables, row in _dealer_rows(report)
        ),
    )


def _day_text(day) -> str:
    return day.isoformat() if hasattr(day, "isoformat") else safe_text(day or "")


def dealers_xlsx(report: dict) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    book = Workbook()
    sheet = book.active
    sheet.title = f"{report['first']:%Y-%m-%d}"
    sheet.append(_dealer_label_titles() + [str(c.title) for c in DEALER_COLUMNS])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    for dealer, day, shift, tables, row in _dealer_rows(report):
        sheet.append(
            [_text_cell(dealer), _day_text(day), shift, _text_cell(tables)]
            + [_rounded(row[c.key], c.kind) for c in DEALER_COLUMNS]
        )
        for column, cell in zip(DEALER_COLUMNS, sheet[sheet.max_row][4:], strict=True):
            cell.number_format = XLSX_FORMATS[column.kind]
    sheet.freeze_panes = "E2"
    sheet.column_dimensions["A"].width = 22
    sheet.column_dimensions["D"].width = 18
    return _save(book)
