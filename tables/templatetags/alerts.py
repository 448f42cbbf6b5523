from django import template

from tables.alerts import alert_text

register = template.Library()


@register.filter
def alert_message(alert) -> str:
    return alert_text(alert)
