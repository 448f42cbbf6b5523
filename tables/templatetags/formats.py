"""``{% load formats %}``: ``money``, ``number``, ``denominations``, ``readable`` — the one
number format of the screens (tables/formats.py says what each does)."""

from django import template

from tables import formats

register = template.Library()

register.filter("money", formats.money)
register.filter("number", formats.number)
register.filter("denominations", formats.denominations)
register.filter("readable", formats.readable)
register.filter("percent", formats.percent)
register.filter("chip_value", formats.chip_value)
register.filter("typed_amount", formats.typed_amount)
