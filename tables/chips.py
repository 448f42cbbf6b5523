"""Chips: which chips make an amount, with a table's chip set — pure functions, no database.

The croupier pays 750 with a 500, two 100s and a 50 where the set has those chips: the
largest chips first, as a croupier counts them out (and, where that misses an amount the set
can make, as with 200s and 500s for 600, the fewest chips that make it exactly). A stake
must be made of the table's chips (:func:`payable`); a payout that cannot be made of them
exactly (3:2 on an odd stake) keeps the rest, which the screen shows beside the chips
(:func:`breakdown`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

CENT = Decimal("0.01")
# Above this many smallest units the exact search gives way to the largest-chip-first rule
# (which is exact for every usual chip set): a bound on the work, not on the amount.
EXACT_LIMIT = 20_000


@dataclass(frozen=True)
class Breakdown:
    """``chips``: (denomination, count), the largest first; ``rest``: what no chip covers."""

    chips: tuple[tuple[Decimal, int], ...]
    rest: Decimal

    @property
    def exact(self) -> bool:
        return self.rest == 0


def denominations_of(chip_set) -> list[Decimal]:
    """A table's chip set (``["25", "100", ...]``) as positive amounts, largest first,
    without repeats; what is not an amount is left out."""
    out = set()
    for value in chip_set or ():
        try:
            amount = Decimal(str(value))
        except (InvalidOperation, ValueError):
            continue
        if amount.is_finite() and amount > 0:
            out.add(amount.quantize(CENT))
    return sorted(out, reverse=True)


def _cents(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def _fewest(target: int, units: list[int]) -> list[int] | None:
    """The fewest chips (values in ``units``) summing to ``target`` exactly, or None."""
    best = [0] + [None] * target
    last = [0] * (target + 1)
    for value in range(1, target + 1):
        for unit in units:
            if unit <= value and best[value - unit] is not None:
                count = best[value - unit] + 1
                if best[value] is None or count < best[value]:
                    best[value] = count
                    last[value] = unit
    if best[target] is None:
        return None
    picked = []
    while target:
        picked.append(last[target])
        target -= last[target]
    return picked


def _greedy(target: int, units: list[int]) -> tuple[list[int], int]:
    picked = []
    for unit in units:
        count, target = divmod(target, unit)
        picked.extend([unit] * count)
    return picked, target


def breakdown(amount, chip_set) -> Breakdown:
    """The fewest chips of ``chip_set`` that make ``amount`` (a positive amount; the sign is
    ignored), and the rest no chip covers. No chip set: everything is the rest."""
    total = abs(Decimal(str(amount))).quantize(CENT)
    denominations = denominations_of(chip_set)
    if not denominations or total == 0:
        return Breakdown(chips=(), rest=total)
    target = _cents(total)
    cents = [_cents(d) for d in denominations]
    step = 0
    for value in cents:
        step = _gcd(step, value)
    picked, rest = _greedy(target, cents)
    if rest and target % step == 0 and target // step <= EXACT_LIMIT:
        # Largest first missed (a set like 200 and 500 for 600): search for an exact way.
        exact = _fewest(target // step, [c // step for c in cents])
        if exact is not None:
            picked, rest = [p * step for p in exact], 0
    counts: dict[int, int] = {}
    for value in picked:
        counts[value] = counts.get(value, 0) + 1
    chips = tuple((Decimal(value) / 100, counts[value]) for value in sorted(counts, reverse=True))
    return Breakdown(
        chips=tuple((d.quantize(CENT), n) for d, n in chips),
        rest=(Decimal(rest) / 100).quantize(CENT),
    )


def payable(amount, chip_set) -> bool:
    """Whether ``amount`` can be put down exactly in chips of ``chip_set`` (an empty chip set
    takes any amount: the table has not said which chips it uses)."""
    if not denominations_of(chip_set):
        return True
    return breakdown(amount, chip_set).exact


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
