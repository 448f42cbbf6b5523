"""Access to one table's pages: a table act of ``staff.permissions`` at that table."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render

from staff.permissions import at, may
from staff.selectors import hand_over_of
from tables.models import Table


def table_required(act: str):
    """Load ``table_id`` and allow only people who may do the table act ``act`` there.

    Anonymous people are sent to sign in; a table that does not exist is a 404; a person
    who may not gets a 403 — which, for someone whose assignment there ended, says who took
    over (``staff/handed_over.html``). The view receives ``table`` and ``table_role`` (the
    person's role there, read once: ``staff.permissions.At``) instead of ``table_id``.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, table_id, *args, **kwargs):
            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            table = get_object_or_404(Table, pk=table_id)
            place = at(user, table)
            if place.role is None:
                handed = hand_over_of(user=user, table=table)
                if handed is not None:
                    # A replaced croupier's tablet asks again when its socket closes: say
                    # why, and where to go, instead of a bare "not allowed".
                    context = {"table": table, **handed}
                    return render(request, "staff/handed_over.html", context, status=403)
            if not may(act, user, place):
                raise PermissionDenied
            return view(request, *args, table=table, table_role=place.role, **kwargs)

        wrapper.act = act
        return wrapper

    return decorator
