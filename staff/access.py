"""Access control for views: role checks and table-assignment checks.

Anonymous people are sent to sign in; signed-in people without the right get a 403.
WebSocket consumers use :func:`staff.selectors.table_role_for` directly.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from staff.selectors import table_role_for


def role_required(*roles: str):
    """Allow the view to people holding any of ``roles``."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not any(user.has_role(role) for role in roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        wrapper.allowed_roles = roles
        return wrapper

    return decorator


def table_required(*roles: str):
    """Load ``table_id`` and allow only people whose role at that table is in ``roles``.

    The view receives ``table`` and ``table_role`` instead of ``table_id``.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, table_id, *args, **kwargs):
            from tables.models import Table

            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            table = get_object_or_404(Table, pk=table_id)
            role = table_role_for(user=user, table=table)
            if role is None or role not in roles:
                raise PermissionDenied
            return view(request, *args, table=table, table_role=role, **kwargs)

        wrapper.allowed_roles = roles
        return wrapper

    return decorator
