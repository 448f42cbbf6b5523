"""Access control for views: the acts of ``staff.permissions``, asked before the view runs.

Anonymous people are sent to sign in; signed-in people who may not do the act get a 403.
A table's pages ask a table act with the person's role at that table
(``tables.access.table_required``); sockets ask in their ``admit``.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from staff.permissions import may


def permission_required(act: str):
    """Allow the view to people who may do the floor act ``act``."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not may(act, user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        wrapper.act = act
        return wrapper

    return decorator
