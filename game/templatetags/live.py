from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def money(value) -> str:
    """An exact amount for the screen: ``1 500``, ``22.50``, ``-100``."""
    if value is None or value == "":
        return ""
    amount = Decimal(str(value))
    sign = "−" if amount < 0 else ""
    amount = abs(amount)
    if amount == amount.to_integral_value():
        text = f"{int(amount):,}".replace(",", "\u202f")
    else:
        whole = int(amount)
        cents = (amount - whole).quantize(Decimal("0.01"))
        text = f"{whole:,}".replace(",", "\u202f") + str(cents)[1:]
    return sign + text


@register.filter
def absolute(value):
    return abs(Decimal(str(value)))
