from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from floor.alerts import ALERT_MESSAGES, money_critical
from floor.models import Alert
from floor.paging import page_of
from floor.parsing import record_id, whole_number
from staff import seats
from staff import selectors as staff_selectors
from staff import services as staff_services
from staff.access import permission_required
from staff.models import TableAssignment, User
from staff.roles import Role, TableRole
from tables import services
from tables.checklists import STEPS, float_discrepancy_lines
from tables.forms import AlertFilterForm, SignForm
from tables.models import ChipCount, Table
from tables.selectors import (
    active_reservations,
    alert_history,
    alerts_visible_to,
    floor_tables,
    last_chip_count,
    reservation_history,
    table_history,
)


@permission_required("tables.pit")
def pit_home(request):
    """The pit boss's home: every table of the floor, its status and its screens."""
    return render(request, "tables/pit_home.html", {"tables": floor_tables()})


def _step_data(request, table) -> dict:
    post = request.POST
    return {
        "counts": {str(d): post.get(f"count_{d}", "") for d in table.chip_denominations or []},
        "decks": post.get("decks"),
        "cut_at": post.get("cut_at"),
        "cards_behind_cut": post.get("cards_behind_cut"),
        "seal": post.get("seal"),
        "tip_box": post.get("tip_box") == "on",
        "removed_by": post.get("removed_by") or None,
        "note": post.get("float_note", "")[:500],
    }


@permission_required("tables.pit")
def table_detail(request, table_id):
    """A table's lifecycle: the opening or closing checklist under way, its signatures, and
    the history of changes, chip counts and reservations."""
    table = get_object_or_404(Table, pk=table_id)
    typed, status = {}, 200
    if request.method == "POST":
        op = request.POST.get("op")
        try:
            _act(request, table, op)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            # Refused: the page again, with the reason and, in the step's form, what was
            # typed (never a password), so the person corrects it instead of typing it again.
            status = 400
            if op == "step":
                typed = {k: v for k, v in request.POST.items() if k != "witness_secret"}
        else:
            return redirect("tables:table", table_id=table.pk)
    table.refresh_from_db()
    return _table_page(request, table, typed=typed, status=status)


def _checklist_steps(checklist) -> tuple[list[dict], list[str]]:
    """The checklist's steps, each with its record once done, and the opening float's
    differences from the par and the last closer (lines to show and sign for)."""
    if checklist is None:
        return [], []
    done = {row.step: row for row in checklist.steps.select_related("done_by")}
    steps = [
        {"code": code, "label": label, "row": done.get(code)}
        for code, label in STEPS[checklist.kind]
    ]
    found = services.float_discrepancy(checklist)
    return steps, float_discrepancy_lines(found) if found else []


def _table_page(request, table, *, typed: dict, status: int):
    """The table's page; ``typed``: what a refused step's form is shown with again."""
    checklist = services.checklist_current(table=table)
    steps, discrepancy = _checklist_steps(checklist)
    return render(
        request,
        "tables/table.html",
        {
            "table": table,
            "checklist": checklist,
            "steps": steps,
            "all_done": checklist is not None and all(s["row"] for s in steps),
            # the opening float's differences from the par and the last closer: the step
            # shows them, the inspector signs for them
            "discrepancy": discrepancy,
            "float_inputs": [
                (
                    d,
                    (table.par_float or {}).get(str(d), 0) if table.par_float else None,
                    typed.get(f"count_{d}", ""),
                )
                for d in table.chip_denominations or []
            ],
            "typed": typed,
            "par_total": sum(
                (Decimal(str(d)) * n for d, n in (table.par_float or {}).items()), Decimal(0)
            ),
            "player_edge": services.player_edge(table),
            "reference": last_chip_count(table=table, kind=ChipCount.Kind.CLOSER),
            "people": User.objects.filter(is_active=True).order_by("full_name", "username"),
            "history": table_history(table=table),
            "reservations": active_reservations(table=table),
            "reservation_history": reservation_history(table=table),
            "counts": ChipCount.objects.filter(table=table).select_related("counted_by")[:10],
        },
        status=status,
    )


def _start_opening(request, table) -> None:
    services.checklist_start(table=table, kind="opening", started_by=request.user)
    messages.success(request, _("Opening started."))


def _start_closing(request, table) -> None:
    services.checklist_start(table=table, kind="closing", started_by=request.user)
    messages.success(request, _("Closing started."))


def _open(request, table) -> None:
    accept = request.POST.get("accept_player_edge") == "on"
    services.table_open(table=table, opened_by=request.user, accept_player_edge=accept)
    messages.success(request, _("The table is open."))


def _close(request, table) -> None:
    services.table_close(table=table, closed_by=request.user)
    messages.success(request, _("The table is closed."))


def _step(request, table) -> None:
    checklist = _checklist(table)
    step = request.POST.get("step", "")
    data = _step_data(request, table)
    if step == "drop_box":
        data["witness"] = services.witness_authenticate(
            request=request,
            identifier=request.POST.get("witness_identifier", ""),
            secret=request.POST.get("witness_secret", ""),
        )
    services.checklist_step_record(checklist=checklist, step=step, done_by=request.user, data=data)


def _sign(request, table) -> None:
    checklist = _checklist(table)
    form = SignForm(request.POST)
    if not form.is_valid():
        raise ValidationError(_("Enter the signer's name and password."))
    signer = services.signer_authenticate(
        request=request,
        identifier=form.cleaned_data["identifier"],
        secret=form.cleaned_data["secret"],
    )
    services.checklist_sign(
        checklist=checklist,
        slot=form.cleaned_data["slot"],
        signer=signer,
        acknowledge=request.POST.get("acknowledge") == "on",
    )
    messages.success(request, _("Signed by %(name)s.") % {"name": signer.display_name})


def _checklist(table):
    checklist = services.checklist_current(table=table)
    if checklist is None:
        raise ValidationError(_("Start the checklist first."))
    return checklist


# What the table's page may ask (its form's ``op``), one handler each: each calls its one
# service, which holds the rule and refuses with the reason.
TABLE_OPS = {
    "start_opening": _start_opening,
    "start_closing": _start_closing,
    "open": _open,
    "close": _close,
    "step": _step,
    "sign": _sign,
}


def _act(request, table, op) -> None:
    handler = TABLE_OPS.get(op)
    if handler is None:
        raise ValidationError(_("The screen sent a message the table cannot read."))
    handler(request, table)


# -- alerts ---------------------------------------------------------------------------------


@permission_required("tables.alerts")
def alerts(request):
    """The alert history: filter by table, kind, open; the inspector sees their tables'."""

    table_ids = alerts_visible_to(user=request.user).values("table_id")
    tables = Table.objects.filter(pk__in=table_ids).order_by("number")
    form = AlertFilterForm(request.GET, tables=tables, kinds=ALERT_MESSAGES)
    error = "" if form.is_valid() else form.error_text()
    if error:
        history = Alert.objects.none()
    else:
        data = form.cleaned_data
        history = alert_history(
            user=request.user,
            table=data["table"].pk if data["table"] else None,
            kind=data["kind"],
            open_only=data["open"],
        )
    rows = page_of(request, history, name="alerts")
    _mark_acknowledgers(rows, request.user)
    return render(
        request,
        "tables/alerts.html",
        {
            "alerts": rows,
            "tables": tables,
            "kinds": sorted(ALERT_MESSAGES),
            "filters": {
                "table": request.GET.get("table", ""),
                "kind": request.GET.get("kind", ""),
                "open": request.GET.get("open") == "1",
            },
            "error": error,
            "next": request.get_full_path(),
        },
        status=400 if error else 200,
    )


def _mark_acknowledgers(rows, user) -> None:
    """Each alert row learns whether ``user`` may acknowledge it here (``can_acknowledge``)
    or raised it himself (``own``: the duty administrator acknowledges it), or deals or
    observes at its table (``own_table``: staff.seats)."""
    inspector = user.has_role(Role.INSPECTOR)
    duty = user.has_role(Role.DUTY_ADMINISTRATOR)
    mine = set(staff_selectors.inspector_table_ids(user=user).values_list("table_id", flat=True))
    seated = seats.croupier_table_ids(user)
    for alert in rows:
        critical = alert.severity == alert.Severity.CRITICAL
        alert.own = services.own_critical(alert, user)
        alert.second_needed = money_critical(alert)  # two people clear it
        alert.own_table = (
            seats.acknowledgement_refusal(user, alert.table_id, croupier_tables=seated) is not None
        )
        alert.can_acknowledge = (
            not alert.own
            and not alert.own_table
            and (
                (duty and critical)
                or (inspector and (alert.table_id is None or alert.table_id in mine))
            )
        )


@permission_required("tables.alerts")
def alert_acknowledge(request):
    """POST ``alert`` and ``note``: the inspector acknowledges an alert of their table (the
    duty administrator a critical one)."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    alert_id = record_id(request.POST.get("alert", ""))
    if alert_id is None:
        message, status = _("Choose an alert to acknowledge."), 400
    else:
        try:
            services.alert_acknowledge(
                alert_id=alert_id,
                by=request.user,
                note=request.POST.get("note", "")[:2000],
                request=request,
                second=request.POST.get("second", "")[:150],
                second_password=request.POST.get("second_password", "")[:128],
            )
            message, status = _("Alert acknowledged."), 200
        except ValidationError as error:
            message, status = " ".join(error.messages), 400
    if request.htmx:
        # The tile refreshes itself through the socket; here only the outcome is shown — a
        # refusal too, so answered 200 (htmx swaps no 4xx), its kind in data-outcome.
        outcome = "ok" if status == 200 else "refused"
        return HttpResponse(
            f'<p id="ack-result" class="ack-result" role="status" hx-swap-oob="true" '
            f'data-testid="ack-result" data-outcome="{outcome}">{escape(message)}</p>'
        )
    back = request.POST.get("next", "")
    if status == 200:
        messages.success(request, message)
        if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            return redirect(back)
        return redirect("tables:alerts")
    messages.error(request, message)
    response = alerts(request)
    response.status_code = status
    return response


# -- staff assignment and rotation ----------------------------------------------------------


@permission_required("tables.staff_tables")
def staff_board(request):
    """Who works at which table in which role and since when; assign, release, plan the
    rotation (a break every N minutes, who relieves whom) and relieve — without /admin/."""
    if request.method == "POST":
        try:
            message = _staff_act(request)
        except ValidationError as error:
            for text in error.messages:
                messages.error(request, text)
        else:
            messages.success(request, message)
        anchor = record_id(request.POST.get("table"))
        return redirect(reverse("tables:staff_board") + (f"#table-{anchor}" if anchor else ""))
    board = staff_selectors.staff_board(tables=floor_tables())
    candidates = {role: list(staff_selectors.free_people(role=role)) for role in TableRole.values}
    holders = {
        role: list(
            User.objects.filter(is_active=True, is_superuser=False, groups__name=role).order_by(
                "full_name", "pk"
            )
        )
        for role in TableRole.values
    }
    for entry in board:
        # One seat per person per table: who works it in another role relieves nobody here.
        seated = {row["assignment"].user_id for row in entry["rows"] if row["assignment"]}
        for row in entry["rows"]:
            row["candidates"] = candidates[row["role"]]  # free now: may be assigned
            # anyone else holding the role may be planned (the site's superuser is no croupier)
            row["reliefs"] = [p for p in holders[row["role"]] if p.pk not in seated]
    return render(request, "tables/staff.html", {"board": board})


def _person(value) -> User:
    person = User.objects.filter(pk=record_id(value), is_active=True).first()
    if person is None:
        raise ValidationError(_("Choose a person."))
    return person


def _current_assignment(value) -> TableAssignment:
    assignment = (
        TableAssignment.objects.select_related("table", "user", "relief")
        .filter(pk=record_id(value), ends_at__isnull=True)
        .first()
    )
    if assignment is None:
        raise ValidationError(_("This assignment has already ended."))
    return assignment


def _assign(request) -> str:
    post = request.POST
    table = Table.objects.filter(pk=record_id(post.get("table"))).first()
    role = post.get("role")
    if table is None or role not in TableRole.values:
        raise ValidationError(_("Choose a table and a role."))
    person = _person(post.get("person"))
    staff_services.staff_assign(table=table, role=role, user=person, assigned_by=request.user)
    return _("%(person)s is now %(role)s at %(table)s.") % {
        "person": person.display_name,
        "role": TableRole(role).label,
        "table": table,
    }


def _plan(request) -> str:
    post = request.POST
    table = Table.objects.filter(pk=record_id(post.get("table"))).first()
    minutes = whole_number(post.get("minutes"), low=15, high=240)
    if table is None or minutes is None:
        raise ValidationError(_("A break every 15 to 240 minutes."))
    staff_services.rotation_plan_set(
        table=table, break_every_minutes=minutes, planned_by=request.user
    )
    return _("Rotation at %(table)s: a break every %(minutes)s minutes.") % {
        "table": table,
        "minutes": minutes,
    }


def _relief(request) -> str:
    post = request.POST
    assignment = _current_assignment(post.get("assignment"))
    relief = _person(post.get("person")) if post.get("person") else None
    staff_services.relief_plan(assignment=assignment, relief=relief, planned_by=request.user)
    if relief is None:
        return _("No relief planned for %(person)s.") % {"person": assignment.user.display_name}
    return _("%(relief)s relieves %(person)s at the next break.") % {
        "relief": relief.display_name,
        "person": assignment.user.display_name,
    }


def _relieve(request) -> str:
    assignment = _current_assignment(request.POST.get("assignment"))
    staff_services.staff_relieve(assignment=assignment, relieved_by=request.user)
    return _("%(relief)s has taken over from %(person)s.") % {
        "relief": assignment.relief.display_name,
        "person": assignment.user.display_name,
    }


def _release(request) -> str:
    assignment = _current_assignment(request.POST.get("assignment"))
    staff_services.staff_release(assignment=assignment, released_by=request.user)
    return _("%(person)s has left %(table)s.") % {
        "person": assignment.user.display_name,
        "table": assignment.table,
    }


# What the pit boss's staff page may ask (its form's ``op``), one handler each: each calls its
# one service and says what was done.
STAFF_OPS = {
    "assign": _assign,
    "plan": _plan,
    "relief": _relief,
    "relieve": _relieve,
    "release": _release,
}


def _staff_act(request) -> str:
    handler = STAFF_OPS.get(request.POST.get("op"))
    if handler is None:
        raise ValidationError(_("The screen sent a message the table cannot read."))
    return handler(request)
