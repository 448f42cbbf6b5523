"""A table setting in the history, named and shown as the configuration form shows it."""

from django import template
from django.core.exceptions import FieldDoesNotExist
from django.db import models

from tables.formats import money, readable
from tables.models import Table

register = template.Library()


def _field(name: str):
    try:
        return Table._meta.get_field(name)
    except FieldDoesNotExist:
        return None


@register.filter
def setting_label(name: str) -> str:
    """``min_bet`` → "minimum bet" (the field's translated verbose name)."""
    field = _field(name)
    return name if field is None else str(field.verbose_name)


@register.filter
def setting_value(value, name: str) -> str:
    """A saved value of the setting ``name``: money for an amount, words for the rest."""
    if isinstance(_field(name), models.DecimalField) and value not in (None, ""):
        return money(value)
    return readable(value)
