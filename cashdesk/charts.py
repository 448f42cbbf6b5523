"""The report's charts as data for Apache ECharts (vendored, drawn as SVG in the browser by
static/js/charts.js; docs/cashdesk.md says how to update it).

The server decides what is drawn and says it in the person's language: titles, axis names,
series names, and each value's label in the one number format (the exact Decimal,
formatted by ``tables.formats``). The browser only places the bars.
"""

from django.templatetags.static import static
from django.utils.translation import gettext as _

from tables.formats import money, number_text

ECHARTS = "vendor/echarts-6.1.0/echarts.common.min.js"


def echarts_url() -> str:
    return static(ECHARTS)


def _series(name: str, values: list, *, percent: bool = False) -> dict:
    return {
        "name": name,
        "values": [None if v is None else str(v) for v in values],
        "labels": [
            "—" if v is None else (number_text(v, 2) + " %" if percent else money(v))
            for v in values
        ],
    }


def hour_chart(hours: list[dict]) -> dict:
    """Win (the settled rounds' result) and registered drop for each clock hour of a
    gaming day, in the order of the day (06, 07, … 05)."""
    return {
        "id": "chart-hours",
        "title": _("Win and drop by hour"),
        "description": _(
            "Bars per clock hour of the gaming day: the settled rounds' win and the cash "
            "registered into the cash box."
        ),
        "categories": [f"{h['hour']:02d}" for h in hours],
        "category_axis": _("Hour"),
        "value_axis": _("Amount"),
        "horizontal": False,
        "series": [
            _series(_("Win (settled rounds)"), [h["win"] for h in hours]),
            _series(_("Drop (registered)"), [h["drop"] for h in hours]),
        ],
        # A day with no win and no drop in any hour: said in words, not an axis of zeros.
        "empty": all(not h["win"] and not h["drop"] for h in hours),
        "empty_text": _(
            "Nothing to show by hour: no round settled and no cash registered into the cash "
            "box on this gaming day."
        ),
    }


def hold_chart(lines: list) -> dict:
    """Hold % per table (one horizontal bar per table; a table without a win has none)."""
    return {
        "id": "chart-hold",
        "title": _("Hold per table"),
        "description": _("Hold, % (win / drop) of each table for the period."),
        "categories": [line.label for line in lines],
        "category_axis": _("Table"),
        "value_axis": _("Hold, %"),
        "horizontal": True,
        "series": [_series(_("Hold, %"), [line.hold for line in lines], percent=True)],
        # No table with a hold (no counted drop, or no line): said in words, not an empty frame.
        "empty": all(line.hold is None for line in lines),
        "empty_text": _("No hold to show: no table has a counted drop in this period."),
    }
