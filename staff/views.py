from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from floor.paging import page_of
from floor.parsing import record_id
from staff import replacements, selectors, services
from staff.access import permission_required
from staff.models import ReplacementRequest, User
from staff.permissions import at, may
from staff.roles import HOME_ORDER, Role, TableRole
from staff.throttle import sign_in_name, throttled_message, wait_notice


def _set_language_cookie(response, language: str) -> None:
    """The language cookie with the project's flags (Secure in production, HttpOnly)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def _safe_next(request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def _signed_in(request, user: User):
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    response = redirect(_safe_next(request, reverse("staff:home")))
    if user.preferred_language:
        _set_language_cookie(response, user.preferred_language)
    return response


def login_view(request):
    """Username and password: for the inspector, the duty administrator and the pit boss.

    Throttled per source like every sign-in (staff/throttle.py): a source that must wait is
    told how long, in place of the form's own message.
    """
    error = ""
    if request.method == "POST":
        form = AuthenticationForm(request, data=request.POST)
        if form.is_valid():
            return _signed_in(request, form.get_user())
        request.sign_in_explained = True
        name = sign_in_name(request, None)
        if getattr(request, "axes_locked_out", False):
            error = throttled_message(request, name)
        else:
            error = " ".join([*form.non_field_errors(), wait_notice(request, name)]).strip()
    else:
        form = AuthenticationForm(request)
    return render(
        request,
        "staff/login.html",
        {"form": form, "error": error, "next": _safe_next(request, "")},
    )


def pin_login_view(request):
    """Name (or employee number) and PIN: for croupiers at the table tablet."""
    error = ""
    identifier = ""
    if request.method == "POST":
        identifier = request.POST.get("identifier", "")
        try:
            user = services.pin_sign_in(
                request=request, identifier=identifier, pin=request.POST.get("pin", "")
            )
        except services.PinError as exc:
            error = str(exc)
        else:
            return _signed_in(request, user)
    status = 200 if not error else 400
    return render(
        request,
        "staff/pin_login.html",
        {"error": error, "identifier": identifier, "next": _safe_next(request, "")},
        status=status,
    )


@require_POST
def logout_view(request):
    logout(request)
    return redirect("staff:login")


@require_POST
def language_view(request):
    """Switch the interface language and remember it for the person (and the browser)."""
    language = request.POST.get("language", "")
    response = redirect(_safe_next(request, reverse("root")))
    if language not in dict(settings.LANGUAGES):
        messages.error(request, _("Unknown language."))
        return response
    if request.user.is_authenticated:
        services.user_set_language(user=request.user, language=language)
    _set_language_cookie(response, language)
    return response


def home(request):
    """Send each person to the home screen of their first role."""
    user = request.user
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    for role in HOME_ORDER:
        if user.has_role(role):
            return redirect(ROLE_HOME_URLS[role])
    if user.is_superuser:
        return redirect("admin:index")
    raise PermissionDenied


ROLE_HOME_URLS = {
    Role.DEALING_CROUPIER: "game:dealer_home",
    Role.OBSERVING_CROUPIER: "game:observer_home",
    Role.INSPECTOR: "game:inspector_home",
    Role.DUTY_ADMINISTRATOR: "cashdesk:duty_home",
    Role.PIT_BOSS: "tables:pit_home",
}


@permission_required("staff.lockouts")
def lockouts_view(request):
    """Locked PINs and sign-in sources that wait or are stopped; the duty administrator
    unlocks a PIN or lifts a source."""
    return render(
        request,
        "staff/lockouts.html",
        {
            "locked": page_of(request, selectors.locked_pins(), name="locked"),
            "sources": page_of(request, selectors.throttled_sources(), name="sources"),
        },
    )


@permission_required("staff.lockouts")
@require_POST
def unlock_view(request, user_id: int):
    person = get_object_or_404(User, pk=user_id)
    services.pin_unlock(user=person, unlocked_by=request.user)
    messages.success(request, _("PIN unlocked for %(person)s.") % {"person": person.display_name})
    return redirect("staff:lockouts")


@permission_required("staff.lockouts")
@require_POST
def source_lift_view(request, attempt_id: int):
    services.sign_in_source_lift(attempt_id=attempt_id, lifted_by=request.user)
    messages.success(request, _("The sign-in source may try again."))
    return redirect("staff:lockouts")


def error_403(request, exception=None):
    return render(request, "403.html", status=403)


def error_404(request, exception=None):
    return render(request, "404.html", status=404)


def error_500(request):
    return render(request, "500.html", status=500)


# -- croupier replacement -------------------------------------------------------------------


def _error_text(error) -> str:
    return " ".join(error.messages)


def replacement_request_view(request, table_id: int):
    """The inspector asks the duty administrator to replace a croupier of this table (only
    a current inspector of it: the table comes with their assignment)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not may("staff.replacement_request", request.user, at(request.user, table_id)):
        raise PermissionDenied
    assignment = selectors.current_assignment(
        user=request.user, table_id=table_id, role=TableRole.INSPECTOR
    )
    table = assignment.table
    error = ""
    status = 200
    if request.method == "POST":
        try:
            replacements.replacement_request(
                table=table,
                role=request.POST.get("role", ""),
                reason=request.POST.get("reason", ""),
                requested_by=request.user,
            )
        except ValidationError as exc:
            error, status = _error_text(exc), 400
        else:
            messages.success(request, _("Request sent to the duty administrator."))
            return redirect("staff:replacement_request", table_id=table.pk)
    return render(
        request,
        "staff/replacement_request.html",
        {
            "table": table,
            "staff": selectors.table_staff(table=table),
            "roles": [(r.value, r.label) for r in replacements.CROUPIER_ROLES],
            "history": selectors.replacement_requests(tables=[table], limit=20),
            "error": error,
            "form": request.POST if error else {},
        },
        status=status,
    )


@permission_required("staff.replacements")
def replacements_view(request):
    """Every replacement request and its decision: the duty administrator sees all, an
    inspector those of the tables they oversee now."""
    tables = None
    if not request.user.has_role(Role.DUTY_ADMINISTRATOR):
        tables = selectors.inspector_table_ids(user=request.user)
    return render(
        request,
        "staff/replacements.html",
        {"requests": page_of(request, selectors.replacement_requests(tables=tables))},
    )


@require_POST
@permission_required("staff.replacement_decide")
def replacement_decide_view(request):
    """Approve (naming the replacement) or reject (with a note) one request."""
    request_id = record_id(request.POST.get("request", ""))
    replacement_request = (
        ReplacementRequest.objects.filter(pk=request_id).first() if request_id else None
    )
    if replacement_request is None:
        return _duty_replacement_refused(request, _("Choose a request to decide."))
    decision = request.POST.get("decision")
    note = request.POST.get("note", "")
    try:
        if decision == "approve":
            person = User.objects.filter(pk=record_id(request.POST.get("replacement"))).first()
            replacements.replacement_approve(
                request_id=replacement_request.pk,
                decided_by=request.user,
                replacement=person,
                note=note,
            )
            messages.success(
                request,
                _("Replacement approved: the hand-over happens at the next round boundary."),
            )
        elif decision == "reject":
            replacements.replacement_reject(
                request_id=replacement_request.pk, decided_by=request.user, note=note
            )
            messages.success(request, _("Replacement request rejected."))
        else:
            return _duty_replacement_refused(request, _("Approve or reject the request."))
    except ValidationError as exc:
        return _duty_replacement_refused(request, _error_text(exc), status=409)
    return redirect(_safe_next(request, reverse("cashdesk:duty_home")))


def _duty_replacement_refused(request, error: str, status: int = 400):
    return render(
        request,
        "staff/replacements.html",
        {"requests": page_of(request, selectors.replacement_requests()), "error": error},
        status=status,
    )
