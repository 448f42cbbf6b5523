from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from game.screens.publish import live_fragment, render_fragment, table_view
from game.table.cards import RANKS, SUIT_SYMBOLS
from staff.access import permission_required
from staff.permissions import At, acts_at
from staff.roles import Role, TableRole
from staff.selectors import current_table_for
from tables.access import table_required
from tables.selectors import floor_tables, inspector_tables


def _to_table_screen(request, role: str, url_name: str, heading: str):
    table = current_table_for(user=request.user, role=role)
    if table is None:
        return render(request, "staff/no_assignment.html", {"heading": heading})
    return redirect(url_name, table_id=table.pk)


@permission_required("game.dealer_home")
def dealer_home(request):
    """The dealing croupier lands on the tablet of the table they are assigned to."""
    return _to_table_screen(
        request, TableRole.DEALING_CROUPIER, "game:dealer", _("Dealing croupier")
    )


@permission_required("game.observer_home")
def observer_home(request):
    return _to_table_screen(
        request, TableRole.OBSERVING_CROUPIER, "game:observer", _("Observing croupier")
    )


@permission_required("game.inspector_home")
def inspector_home(request):
    """One live tile per table this inspector oversees."""
    language = request.LANGUAGE_CODE
    tiles = [
        render_fragment(table_view(table.pk), "tile", language)
        for table in inspector_tables(user=request.user)
    ]
    return render(request, "game/inspector_home.html", {"tiles": tiles})


@permission_required("game.pit_overview")
def pit_overview(request):
    """Every table of the floor as a live tile: its dealer, round, result and open alerts."""
    language = request.LANGUAGE_CODE
    tiles = [render_fragment(table_view(table.pk), "tile", language) for table in floor_tables()]
    return render(request, "game/pit_overview.html", {"tiles": tiles})


def _live_context(request, table, role, **extra) -> dict:
    view = table_view(table.pk)
    return {
        "table": table,
        "view": view,
        "live_html": render_fragment(view, live_fragment(role), request.LANGUAGE_CODE),
        "may": acts_at(request.user, At(table.pk, role)),
        **extra,
    }


@table_required("game.deal")
def dealer(request, table, table_role):
    """The dealing croupier's tablet (with the card pad on a manual table)."""
    context = _live_context(request, table, table_role)
    if not context["view"]["simulated"]:
        context["card_pad"] = {
            "suits": context["view"]["suits"],
            "suit_choices": list(SUIT_SYMBOLS.items()),
            "ranks": RANKS,
        }
    return render(request, "game/dealer.html", context)


SCREEN_ROLES = {
    TableRole.OBSERVING_CROUPIER: ("observer", _lazy("Observing croupier")),
    TableRole.INSPECTOR: ("inspector", _lazy("Inspector")),
    Role.DUTY_ADMINISTRATOR: ("duty", _lazy("Duty administrator")),
    Role.PIT_BOSS: ("pitboss", _lazy("Pit boss")),
}


@table_required("game.watch_table")
def observer(request, table, table_role):
    """The live table, read-only, with the watcher's own actions (flag, void)."""
    screen_role, title = SCREEN_ROLES[table_role]
    return render(
        request,
        "game/observer.html",
        _live_context(request, table, table_role, screen_role=screen_role, screen_title=title),
    )
