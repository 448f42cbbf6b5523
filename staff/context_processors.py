from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from staff.roles import Role

NAV = [
    (Role.DEALING_CROUPIER, "game:dealer_home", _("My table")),
    (Role.OBSERVING_CROUPIER, "game:observer_home", _("Observe")),
    (Role.INSPECTOR, "game:inspector_home", _("Inspector")),
    (Role.DUTY_ADMINISTRATOR, "cashdesk:duty_home", _("Cash reports")),
    (Role.DUTY_ADMINISTRATOR, "staff:lockouts", _("Locked sign-ins")),
    (Role.PIT_BOSS, "tables:pit_home", _("Pit")),
    (Role.PIT_BOSS, "game:pit_overview", _("Pit overview")),
    (Role.PIT_BOSS, "tables:staff_board", _("Staff")),
    (Role.DUTY_ADMINISTRATOR, "tables:staff_board", _("Staff")),
]


def navigation(request):
    """Navigation items for the roles the signed-in person holds."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_items": []}
    items = []
    for role, name, label in NAV:
        if user.has_role(role):
            try:
                url = reverse(name)
            except NoReverseMatch:
                continue
            if any(item["url"] == url for item in items):
                continue  # a person with two roles that share a screen
            items.append({"url": url, "label": label, "active": request.path.startswith(url)})
    if user.is_staff:
        items.append({"url": reverse("admin:index"), "label": _("Admin"), "active": False})
    return {"nav_items": items}
