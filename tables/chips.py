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
from decimal import Decimal

from floor import parsing

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
    without repeats; what is not an amount (``floor.parsing``) is left out."""
    out = set()
    for value in chip_set or ():
        try:
            out.add(parsing.amount(value, positive=True))
        except parsing.Unreadable:
            continue
    return sorted(out, reverse=True)


def _cents(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def _fewest(target: int, units: list[int]) -> dict[int, int] | None:
    """The fewest chips (values in ``units``) summing to ``target`` exactly, counted per
    value, or None. Callers bound ``target`` (``EXACT_LIMIT``): the search is O(target)."""
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
    counts: dict[int, int] = {}
    while target:
        counts[last[target]] = counts.get(last[target], 0) + 1
        target -= last[target]
    return counts


def _greedy(target: int, units: list[int]) -> tuple[dict[int, int], int]:
    """The largest chips first, counted per value (one division each: never a chip at a
    time), and the rest."""
    counts = {}
    for unit in units:
        count, target = divmod(target, unit)
        if count:
            counts[unit] = count
    return counts, target


def breakdown(amount, chip_set) -> Breakdown:
    """The fewest chips of ``chip_set`` that make ``amount`` (a positive amount; the sign is
    ignored), and the rest no chip covers. No chip set: everything is the rest.

    Counted per denomination with a division each, so the work does not grow with the
    amount; the exact search for sets where the largest first misses is bounded by
    ``EXACT_LIMIT``. ``amount`` is a ``Decimal`` (or what ``Decimal`` reads exactly) below
    ``floor.parsing.MAX_AMOUNT``: parsing typed text is ``floor.parsing``'s."""
    total = abs(Decimal(amount))
    if not total.is_finite() or total >= parsing.MAX_AMOUNT:
        raise ValueError(f"Not an amount of chips: {amount!r}")
    total = total.quantize(CENT)
    denominations = denominations_of(chip_set)
    if not denominations or total == 0:
        return Breakdown(chips=(), rest=total)
    target = _cents(total)
    cents = [_cents(d) for d in denominations]
    step = 0
    for value in cents:
        step = _gcd(step, value)
    counts, rest = _greedy(target, cents)
    if rest and target % step == 0 and target // step <= EXACT_LIMIT:
        # Largest first missed (a set like 200 and 500 for 600): search for an exact way.
        exact = _fewest(target // step, [c // step for c in cents])
        if exact is not None:
            counts, rest = {unit * step: n for unit, n in exact.items()}, 0
    return Breakdown(
        chips=tuple(
            ((Decimal(value) / 100).quantize(CENT), counts[value])
            for value in sorted(counts, reverse=True)
        ),
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
