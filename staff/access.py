"""Access control for views: role checks and table-assignment checks.

Anonymous people are sent to sign in; signed-in people without the right get a 403.
The check of a person's role at one table is ``tables.access.table_required``; WebSocket
consumers use :func:`staff.selectors.table_role_for` directly.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


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
