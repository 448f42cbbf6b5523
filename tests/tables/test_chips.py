"""Which chips pay an amount with a table's chip set (tables/chips.py): pure, no database."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.chips import breakdown, payable

SET = ["50", "100", "500", "1000", "5000"]


def chips(amount, chip_set=SET):
    split = breakdown(amount, chip_set)
    return [(str(int(d)) if d == int(d) else str(d), n) for d, n in split.chips], split.rest


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (750, [("500", 1), ("100", 2), ("50", 1)]),
        (1000, [("1000", 1)]),
        (12_350, [("5000", 2), ("1000", 2), ("100", 3), ("50", 1)]),
        (-200, [("100", 2)]),  # what is collected is counted the same way
    ],
)
def test_the_largest_chips_first_make_the_amount(amount, expected):
    assert chips(amount) == (expected, Decimal("0.00"))


def test_what_no_chip_covers_is_kept_apart():
    # 3:2 on 150 is 225: two 100s, and 25 that a set without 25s cannot make
    assert chips(225, ["50", "100", "500"]) == ([("100", 2)], Decimal("25.00"))


def test_where_largest_first_misses_the_fewest_exact_chips_are_found():
    assert chips(600, ["200", "500"]) == ([("200", 3)], Decimal("0.00"))


def test_no_chip_set_leaves_everything_apart():
    assert chips(750, []) == ([], Decimal("750.00"))


@pytest.mark.parametrize(
    ("amount", "chip_set", "ok"),
    [
        ("150.50", SET, False),
        ("150", SET, True),
        ("25", SET, False),
        ("300", ["200", "500"], False),
        ("700", ["200", "500"], True),
        ("150.50", [], True),  # a table that has not said its chips takes any amount
        ("12.5", ["2.5", "10"], True),
    ],
)
def test_a_stake_must_be_made_of_the_chips(amount, chip_set, ok):
    assert payable(amount, chip_set) is ok


@given(
    st.integers(min_value=0, max_value=2_000_000),
    st.lists(st.sampled_from(["1", "5", "25", "50", "100", "500", "1000", "5000"]), min_size=1),
)
def test_the_chips_and_the_rest_always_add_up_to_the_amount(cents, chip_set):
    amount = Decimal(cents) / 100
    split = breakdown(amount, chip_set)
    total = sum((d * n for d, n in split.chips), Decimal(0)) + split.rest
    assert total == amount
    assert all(n > 0 for _d, n in split.chips)
    assert 0 <= split.rest < min(Decimal(c) for c in chip_set)


@pytest.mark.parametrize(
    ("amount", "chip_set", "expected"),
    [
        ("999999999999.99", ["0.01"], [("0.01", 99_999_999_999_999)]),
        ("999999999500", ["5", "25", "100", "500"], [("500.00", 1_999_999_999)]),
        ("999999999999.50", ["0.50", "5000"], [("5000.00", 199_999_999), ("0.50", 9999)]),
    ],
)
def test_a_huge_amount_is_counted_per_denomination_never_chip_by_chip(amount, chip_set, expected):
    # Issue 19 item 8: a list of ``amount // chip`` chips was built here (2.9 GB for a stake
    # of 10^12, MemoryError beyond); a count per denomination costs one division each.
    split = breakdown(Decimal(amount), chip_set)
    assert [(str(d), n) for d, n in split.chips] == expected and split.exact


def test_an_amount_beyond_any_table_is_not_split_at_all():
    with pytest.raises(ValueError):
        breakdown(Decimal("1e30"), SET)
