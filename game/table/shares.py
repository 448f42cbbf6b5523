"""Splitting a box's result among the players who share it (pure Python).

Rule (documented in docs/protocol.md): each share gets ``net * stake / total`` rounded
toward zero to the smallest unit (0.01); the indivisible remainder — at most one unit per
share — goes to the box's owner (the first share), who makes the box's decisions.
The parts always add up exactly to the box's result.
"""

from decimal import ROUND_DOWN, Decimal

UNIT = Decimal("0.01")


def split_pro_rata(net: Decimal, stakes: list[Decimal], unit: Decimal = UNIT) -> list[Decimal]:
    """Split ``net`` among ``stakes`` pro rata; the remainder goes to the first stake."""
    if not stakes:
        return []
    total = sum(stakes, Decimal(0))
    if total <= 0:
        raise ValueError("stakes must add up to more than zero")
    sign = -1 if net < 0 else 1
    magnitude = abs(net)
    parts = [(magnitude * s / total).quantize(unit, rounding=ROUND_DOWN) for s in stakes]
    parts[0] += magnitude - sum(parts, Decimal(0))
    return [sign * p for p in parts]
