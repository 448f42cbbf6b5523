from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from staff import selectors, services
from staff.access import role_required
from staff.models import User
from staff.roles import HOME_ORDER, Role

LANGUAGE_COOKIE = "django_language"


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
        response.set_cookie(LANGUAGE_COOKIE, user.preferred_language, samesite="Lax")
    return response


def login_view(request):
    """Username and password: for the inspector, the duty administrator and the pit boss."""
    if request.method == "POST":
        form = AuthenticationForm(request, data=request.POST)
        if form.is_valid():
            return _signed_in(request, form.get_user())
    else:
        form = AuthenticationForm(request)
    return render(request, "staff/login.html", {"form": form, "next": _safe_next(request, "")})


def pin_login_view(request):
    """Name (or employee number) and PIN: for the table tablet."""
    error = ""
    identifier = ""
    if request.method == "POST":
        identifier = request.POST.get("identifier", "")
        try:
            user = services.pin_authenticate(identifier=identifier, pin=request.POST.get("pin", ""))
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
    response.set_cookie(LANGUAGE_COOKIE, language, samesite="Lax", max_age=365 * 24 * 3600)
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


@role_required(Role.DUTY_ADMINISTRATOR)
def lockouts_view(request):
    """PINs locked after too many wrong tries; the duty administrator unlocks them."""
    return render(request, "staff/lockouts.html", {"locked": selectors.locked_pins()})


@role_required(Role.DUTY_ADMINISTRATOR)
@require_POST
def unlock_view(request, user_id: int):
    person = get_object_or_404(User, pk=user_id)
    services.pin_unlock(user=person, unlocked_by=request.user)
    messages.success(request, _("PIN unlocked for %(person)s.") % {"person": person.display_name})
    return redirect("staff:lockouts")


def error_403(request, exception=None):
    return render(request, "403.html", status=403)


def error_404(request, exception=None):
    return render(request, "404.html", status=404)


def error_500(request):
    return render(request, "500.html", status=500)
