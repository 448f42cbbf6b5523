"""Sign-in throttling by source, on django-axes (settings: ``AXES_*``, ``SIGN_IN_*``).

A source is the client's address and the name typed, together: wrong tries slow and then
stop that source, never the person, so a croupier still signs in at his own tablet while
somebody else's guesses for his name wait. The first ``SIGN_IN_FREE_TRIES`` wrong tries are
free; after each further one the source waits ``SIGN_IN_DELAY_SECONDS``, doubling; at
``AXES_FAILURE_LIMIT`` it stops for ``AXES_COOLOFF_TIME`` (the duty administrator may lift
it sooner on the "Locked sign-ins" page). An unknown name is counted exactly like a known
one, so the answers cannot tell them apart.
"""

import math

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessFailureLog
from django.conf import settings
from django.db.models import Count, Max, Q, Sum
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from staff.models import User

NAME_MAX = 150


def sign_in_name(request, credentials: dict | None) -> str | None:
    """The name a sign-in try is counted under (``AXES_USERNAME_CALLABLE``).

    The person's username when the typed name is a username (any case) or an employee
    number, so both spellings share one count; otherwise the typed name itself. Lower-cased.
    """
    typed = None
    if credentials:
        typed = credentials.get("username") or credentials.get("pin_identifier")
    if typed is None and request is not None:
        data = getattr(request, "POST", None) or {}
        typed = data.get("username") or data.get("identifier")
    typed = str(typed or "").strip()[:NAME_MAX]
    if not typed:
        return None
    cache = request.__dict__.setdefault("_sign_in_names", {}) if request is not None else {}
    if typed not in cache:
        username = (
            User.objects.filter(Q(username__iexact=typed) | Q(employee_number=typed))
            .order_by("pk")
            .values_list("username", flat=True)
            .first()
        )
        cache[typed] = (username or typed).lower()
    return cache[typed]


def delay_after(failures: int) -> int:
    """Seconds a source waits after its ``failures``-th wrong try (before the stop)."""
    free = settings.SIGN_IN_FREE_TRIES
    if failures <= free:
        return 0
    return settings.SIGN_IN_DELAY_SECONDS * 2 ** (failures - free - 1)


class ThrottleHandler(AxesDatabaseHandler):
    """django-axes' database handler plus the growing delay before the stop."""

    def source_state(self, request, credentials=None) -> tuple[int, int]:
        """``(failures, seconds to wait)`` of the request's source now."""
        failures, last = 0, None
        for attempts in self.get_user_attempts(request, credentials):
            row = attempts.aggregate(n=Sum("failures_since_start"), last=Max("attempt_time"))
            if (row["n"] or 0) > failures:
                failures, last = row["n"], row["last"]
        if not failures or last is None:
            return failures, 0
        if failures >= settings.AXES_FAILURE_LIMIT:
            until = last + settings.AXES_COOLOFF_TIME
        else:
            until = last + timezone.timedelta(seconds=delay_after(failures))
        return failures, max(0, math.ceil((until - timezone.now()).total_seconds()))

    def is_locked(self, request, credentials=None) -> bool:
        if super().is_locked(request, credentials):
            return True
        return self.source_state(request, credentials)[1] > 0


def source_wait(request, name: str | None) -> int:
    """Seconds the request's source must wait before its next try for ``name`` (0: none)."""
    from axes.handlers.proxy import AxesProxyHandler

    AxesProxyHandler.update_request(request)
    handler = AxesProxyHandler.get_implementation()
    if not isinstance(handler, ThrottleHandler):
        return 0
    return handler.source_state(request, {"username": name})[1]


def wait_text(seconds: int) -> str:
    if seconds >= 120:
        minutes = math.ceil(seconds / 60)
        return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}


def throttled_message(request, name: str | None) -> str:
    """What a throttled source is told: the same for every name, known or not."""
    wait = max(source_wait(request, name), 1)
    return _(
        "Too many wrong tries from this device for this name. Try again in %(wait)s, "
        "or ask the duty administrator to lift the stop."
    ) % {"wait": wait_text(wait)}


def wait_notice(request, name: str | None) -> str:
    """After a wrong try: how long the source waits before the next one, or ''."""
    wait = source_wait(request, name)
    if not wait:
        return ""
    return _("Wait %(wait)s before the next try.") % {"wait": wait_text(wait)}


def name_under_attack(name: str | None) -> bool:
    """Whether ``name`` had ``PIN_LOCK_FAILURES`` wrong tries from at least
    ``PIN_LOCK_SOURCES`` addresses in the last ``PIN_LOCK_HOURS`` (a person's PIN locks then;
    an unknown name is answered the same way)."""
    if not name:
        return False
    since = timezone.now() - timezone.timedelta(hours=settings.PIN_LOCK_HOURS)
    row = AccessFailureLog.objects.filter(username=name, attempt_time__gte=since).aggregate(
        n=Count("id"), sources=Count("ip_address", distinct=True)
    )
    return row["n"] >= settings.PIN_LOCK_FAILURES and row["sources"] >= settings.PIN_LOCK_SOURCES


def lockout_response(request, original_response=None, credentials=None):
    """``AXES_LOCKOUT_CALLABLE``: our own sign-in screens explain a throttled try in place
    (they mark the request); any other (the admin's sign-in) gets a 429 page saying it.

    django-axes' own async middleware calls this as ``(request, credentials)``, the dict where
    the response belongs (staff.middleware.SignInThrottleMiddleware is used instead); should
    that call come anyway, the try gets the 429 page, never the dict back (a 500)."""
    if isinstance(original_response, dict):
        credentials, original_response = original_response, None
    if original_response is not None and getattr(request, "sign_in_explained", False):
        return original_response
    name = sign_in_name(request, credentials)
    return render(
        request,
        "staff/throttled.html",
        {"message": throttled_message(request, name)},
        status=429,
    )
