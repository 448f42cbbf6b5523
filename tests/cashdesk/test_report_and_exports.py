"""The cash report on screen, on paper, as XLSX (the default) and CSV: the same columns in
the same order everywhere, one number format, a line that explains why the win and the
rounds' result differ, CSV for the person's Excel, and no cell that can become a formula."""

import csv
import html
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from cashdesk import services
from cashdesk.models import CashIn
from tests.cashdesk.conftest import today

pytestmark = pytest.mark.django_db

WIN_COLUMNS = [
    "Opener",
    "Closer",
    "Fills",
    "Credits",
    "Drop (counted)",
    "Win",
    "Hold, %",
    "Result of the rounds",
    "Cash to the pit desk",
    "Cash-ins to the cash box",
    "Drop difference",
]
PLAY_COLUMNS = [
    "Rounds",
    "Boxes played",
    "Boxes per hour",
    "Average bet",
    "Theoretical win",
    "Tips",
]


@pytest.fixture
def pit_cash_day(cash_table, crew, count_chips, closed_round):
    """The issue's day: 100 000 changed through the pit desk (never in the drop box),
    13 000 into the cash box, the players won 14 200. Opener 200 000, closer 72 800, drop
    13 000: win −114 200, hold −878.46 %, while the rounds' result is −14 200."""
    import datetime as dt

    from django.utils import timezone

    count_chips(cash_table, "opener", "200000", at=timezone.now() - dt.timedelta(seconds=1))
    services.cash_in_record(
        table=cash_table,
        actor=crew["dealer"],
        notes={"5000": 20},
        chips={"5000": 20},
        destination=CashIn.Destination.PIT_CASH_DESK,
    )
    services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 13}, chips={"1000": 13}
    )
    closed_round(cash_table, bets=["5000"], players_net="14200")
    count_chips(cash_table, "closer", "72800")
    services.drop_enter(table=cash_table, gaming_day=today(), amount="13000", actor=crew["duty"])
    return cash_table


def _cells(page: str, testid: str, line: str) -> dict:
    """{column key: text} of one line of a report table on the page."""
    table = page.split(f'data-testid="{testid}"')[1].split("</table>")[0]
    row = table.split(f'data-line="{line}"')[1].split("</tr>")[0]
    return dict(re.findall(r'data-column="([a-z_]+)"[^>]*>([^<]*)<', row))


def _headers(page: str, testid: str) -> list[str]:
    table = page.split(f'data-testid="{testid}"')[1].split("</thead>")[0]
    return re.findall(r'<th scope="col" class="num" data-column="[a-z_]+">([^<]*)</th>', table)


def test_the_screen_shows_the_pit_cash_and_says_why_win_and_result_differ(
    client, english_crew, pit_cash_day
):
    client.force_login(english_crew["duty"])
    page = client.get(reverse("cashdesk:report"), {"day": today().isoformat()}).content.decode()
    line = _cells(page, "report-table", str(pit_cash_day))
    assert line["win"] == "−114,200.00"
    assert line["hold"] == "−878.46"
    assert line["game_win"] == "−14,200.00"
    assert line["pit_cash"] == "100,000.00"
    assert line["registered"] == "13,000.00"
    assert line["drop_difference"] == "0.00"
    legend = html.unescape(page.split('data-testid="report-legend"')[1].split("</p>")[0])
    assert "result of the rounds = win + cash to the pit desk − drop difference" in legend
    assert "never reaches the table's cash box" in legend


def test_the_same_columns_in_the_same_order_on_screen_in_print_csv_and_xlsx(
    client, english_crew, worked_day
):
    client.force_login(english_crew["duty"])
    day = {"day": today().isoformat()}
    page = client.get(reverse("cashdesk:report"), day).content.decode()
    printed = client.get(reverse("cashdesk:report_print"), day).content.decode()
    for shown in (page, printed):
        assert _headers(shown, "report-table") == WIN_COLUMNS
        assert _headers(shown, "play-table") == PLAY_COLUMNS
        assert 'data-testid="report-legend"' in shown
    csv_rows = _csv(client.get(reverse("cashdesk:export"), {**day, "format": "csv"}))
    # the exports add one column: what the screen marks on a cell (a pending correction)
    pending = "Awaiting confirmation"
    assert csv_rows[0] == ["Line", *WIN_COLUMNS, *PLAY_COLUMNS, pending]
    sheet = _sheet(client.get(reverse("cashdesk:export"), day))
    first = list(next(sheet.iter_rows(values_only=True)))
    assert first == ["Line", *WIN_COLUMNS, *PLAY_COLUMNS, pending]


def _csv(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads the file as UTF-8
    text = body.decode("utf-8-sig")
    delimiter = ";" if text.split("\r\n")[0].count(";") else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def _sheet(response):
    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert response["Content-Disposition"].endswith('.xlsx"')
    return load_workbook(io.BytesIO(response.content)).active


def test_xlsx_is_the_default_download_with_number_cells(client, english_crew, pit_cash_day):
    client.force_login(english_crew["pitboss"])
    sheet = _sheet(client.get(reverse("cashdesk:export"), {"day": today().isoformat()}))
    rows = list(sheet.iter_rows(values_only=True))
    header, line, total = rows[0], rows[1], rows[2]
    figures = dict(zip(header, line, strict=True))
    assert figures["Line"] == str(pit_cash_day)
    assert figures["Win"] == -114200 and isinstance(figures["Win"], int | float)
    assert figures["Hold, %"] == pytest.approx(-878.46)
    assert figures["Result of the rounds"] == -14200
    assert figures["Cash to the pit desk"] == 100000
    assert total[0] == "Total" and dict(zip(header, total, strict=True))["Win"] == -114200
    win_cell = sheet.cell(row=2, column=header.index("Win") + 1)
    assert win_cell.data_type == "n" and win_cell.number_format == "#,##0.00"
    assert "cash to the pit desk" in rows[-1][0]  # the legend under the table


def test_csv_in_russian_is_semicolon_separated_with_a_decimal_comma(client, crew, pit_cash_day):
    client.force_login(crew["duty"])  # Russian, the house language
    rows = _csv(
        client.get(reverse("cashdesk:export"), {"day": today().isoformat(), "format": "csv"})
    )
    header, line = rows[0], rows[1]
    assert header[0] == "Строка" and "Выигрыш" in header
    figures = dict(zip(header, line, strict=True))
    assert figures["Выигрыш"] == "-114200,00"
    assert figures["Холд, %"] == "-878,46"
    assert figures["Розыгрыши"] == "1"


def test_csv_in_english_is_comma_separated_with_a_decimal_point(client, english_crew, worked_day):
    client.force_login(english_crew["duty"])
    rows = _csv(
        client.get(reverse("cashdesk:export"), {"day": today().isoformat(), "format": "csv"})
    )
    figures = dict(zip(rows[0], rows[1], strict=True))
    assert figures["Win"] == "17000.00" and figures["Hold, %"] == "56.67"
    assert figures["Fills"] == "20000.00" and figures["Credits"] == "5000.00"
    assert dict(zip(rows[0], rows[2], strict=True))["Win"] == "17000.00"


FORMULA = '=HYPERLINK("http://x","y")'


@pytest.fixture
def hostile_names(cash_table, crew, pit_cash_day):
    cash_table.name = FORMULA
    cash_table.save(update_fields=["name"])
    services.cash_in_record(
        table=cash_table,
        actor=crew["dealer"],
        notes={"1000": 1},
        chips={"1000": 1},
        player_card="-1-1",  # a card the parser takes ("+" it refuses) that reads as a sum
    )
    return cash_table


def test_no_text_in_the_report_exports_can_become_a_formula(client, english_crew, hostile_names):
    client.force_login(english_crew["duty"])
    day = {"day": today().isoformat()}
    sheet = _sheet(client.get(reverse("cashdesk:export"), day))
    label = sheet.cell(row=2, column=1)
    assert label.value == "'" + FORMULA and label.data_type == "s"
    win = sheet.cell(row=2, column=7)
    assert sheet.cell(row=1, column=7).value == "Win"
    assert win.value == -114200 and win.data_type == "n"  # a negative number stays a number
    rows = _csv(client.get(reverse("cashdesk:export"), {**day, "format": "csv"}))
    assert rows[1][0] == "'" + FORMULA
    assert rows[1][6] == "-114200.00"  # a number, not neutralised text


def test_no_text_in_the_records_exports_can_become_a_formula(client, english_crew, hostile_names):
    client.force_login(english_crew["duty"])
    query = {"day": today().isoformat(), "table": hostile_names.pk}
    response = client.get(reverse("cashdesk:records_export"), query)
    book = load_workbook(io.BytesIO(response.content))
    cash_ins = book.worksheets[0]
    rows = list(cash_ins.iter_rows(values_only=True))
    header = rows[0]
    by_card = {r[header.index("Player card")]: dict(zip(header, r, strict=True)) for r in rows[1:]}
    assert set(by_card) == {"'-1-1", None}
    assert by_card["'-1-1"]["Table"] == "'" + FORMULA
    assert by_card["'-1-1"]["Cash"] == 1000
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
    rows = _csv(client.get(reverse("cashdesk:records_export"), {**query, "format": "csv"}))
    assert rows[0][:3] == ["Entered at", "Table", "Cash"]
    cards = {r[rows[0].index("Player card")] for r in rows[1:]}
    assert cards == {"'-1-1", ""}
    assert {r[1] for r in rows[1:]} == {"'" + FORMULA}


def test_a_tab_or_carriage_return_at_the_start_is_neutralised_too():
    from cashdesk.exports import safe_text

    for text in ("\tcmd", "\rcmd", "@SUM(A1)", "-2+3", "+1", "=1"):
        assert safe_text(text) == "'" + text
    assert safe_text("BJ-1") == "BJ-1" and safe_text("") == ""


def test_the_report_page_shows_figures_charts_and_drill_down(client, english_crew, worked_day):
    client.force_login(english_crew["duty"])
    page = client.get(reverse("cashdesk:report"), {"day": today().isoformat()}).content.decode()
    line = _cells(page, "report-table", str(worked_day))
    assert (line["win"], line["hold"]) == ("17,000.00", "56.67")
    play = _cells(page, "play-table", str(worked_day))
    assert (play["rounds"], play["hands"], play["average_bet"]) == ("2", "6", "1,000.00")
    # both charts: data for the vendored ECharts, served by the app
    assert 'id="chart-hours" type="application/json"' in page
    assert 'id="chart-hold" type="application/json"' in page
    assert '/static/vendor/echarts-6.1.0/echarts.common.min.js"' in page
    assert "<script>" not in page  # no inline code: data in JSON, code in static files
    assert reverse("cashdesk:records") in page
    records = client.get(
        reverse("cashdesk:records"),
        {"first": today().isoformat(), "last": today().isoformat(), "table": worked_day.pk},
    ).content.decode()
    assert "F-" in records and "entered twice" in records
    assert "5,000 × 4" in records  # the fill's chips, not a Python dict
    shifts = client.get(reverse("cashdesk:report"), {"day": today(), "group": "shift"})
    assert 'data-testid="shift-table"' in shifts.content.decode()
    month = client.get(reverse("cashdesk:report"), {"month": today().strftime("%Y-%m")})
    assert "17,000.00" in month.content.decode()


def test_the_charts_speak_the_persons_language(client, crew, worked_day):
    import json

    client.force_login(crew["duty"])  # Russian
    page = client.get(reverse("cashdesk:report"), {"day": today().isoformat()}).content.decode()
    data = page.split('id="chart-hold" type="application/json">')[1].split("</script>")[0]
    hold = json.loads(data)
    assert hold["title"] == "Холд по столам"
    assert hold["series"][0]["labels"] == ["56,67 %"]
    assert hold["series"][0]["values"] == ["56.67"]
    hours = json.loads(
        page.split('id="chart-hours" type="application/json">')[1].split("</script>")[0]
    )
    assert len(hours["categories"]) == 24 and hours["categories"][0] == "06"
    assert Decimal(sum(Decimal(v) for v in hours["series"][0]["values"])) == Decimal("17000")


def test_a_croupier_cannot_open_a_report_or_download(client, crew):
    client.force_login(crew["dealer"])
    for name in ("cashdesk:report", "cashdesk:export", "cashdesk:records_export"):
        assert client.get(reverse(name)).status_code == 403
