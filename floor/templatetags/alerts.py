from django import template

from floor.alerts import alert_kind_label, alert_text, money_critical

register = template.Library()


@register.filter
def alert_message(alert) -> str:
    return alert_text(alert)


@register.filter
def kind_label(kind: str) -> str:
    return alert_kind_label(kind)


@register.filter
def needs_second(alert) -> bool:
    """A critical money alert: cleared by two people (a second person's password)."""
    return money_critical(alert)
