"""Access to one table's pages: the person's role at that table (``staff``'s rules)."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render

from staff.selectors import hand_over_of, table_role_for
from tables.models import Table


def table_required(*roles: str):
    """Load ``table_id`` and allow only people whose role at that table is in ``roles``.

    Anonymous people are sent to sign in; a table that does not exist is a 404; a person
    without one of ``roles`` there gets a 403 — which, for someone whose assignment there
    ended, says who took over (``staff/handed_over.html``). The view receives ``table`` and
    ``table_role`` instead of ``table_id``.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, table_id, *args, **kwargs):
            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            table = get_object_or_404(Table, pk=table_id)
            role = table_role_for(user=user, table=table)
            if role is None:
                handed = hand_over_of(user=user, table=table)
                if handed is not None:
                    # A replaced croupier's tablet asks again when its socket closes: say
                    # why, and where to go, instead of a bare "not allowed".
                    context = {"table": table, **handed}
                    return render(request, "staff/handed_over.html", context, status=403)
            if role is None or role not in roles:
                raise PermissionDenied
            return view(request, *args, table=table, table_role=role, **kwargs)

        wrapper.allowed_roles = roles
        return wrapper

    return decorator
