"""Translated messages for alert kinds. Add a kind here when you raise a new one."""

from django.utils.translation import gettext_lazy as _

ALERT_MESSAGES = {
    "flag": _("The observing croupier flagged an error: %(note)s"),
}


def alert_text(alert) -> str:
    template = ALERT_MESSAGES.get(alert.kind)
    if template is None:
        return alert.kind
    try:
        return str(template) % alert.params
    except (KeyError, TypeError, ValueError):
        return str(template)
