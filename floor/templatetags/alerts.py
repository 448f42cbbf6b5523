from django import template

from floor.alerts import alert_kind_label, alert_text

register = template.Library()


@register.filter
def alert_message(alert) -> str:
    return alert_text(alert)


@register.filter
def kind_label(kind: str) -> str:
    return alert_kind_label(kind)
