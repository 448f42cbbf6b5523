"""The one parser (floor/parsing.py): what it reads, what it refuses and why — pure, no
database. The same input refused here is refused on every form and socket (tests of
game and cashdesk: test_bad_input_on_the_socket.py, test_bad_input_never_crashes.py)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from floor import parsing
from floor.parsing import Unreadable


@pytest.mark.parametrize(
    ("typed", "amount"),
    [
        ("100", "100.00"),
        ("1500.5", "1500.50"),
        ("1500,50", "1500.50"),  # the Russian keyboard's comma
        ("1 500,50", "1500.50"),
        ("1\u00a0500,50", "1500.50"),  # a no-break space: how Russian amounts are printed
        ("1\u202f500", "1500.00"),  # a narrow no-break space
        ("12 345 678", "12345678.00"),
        ("  25  ", "25.00"),
        ("007", "7.00"),
        ("999 999 999 999,99", "999999999999.99"),
        (250, "250.00"),  # a JSON integer is exact
        (Decimal("22.5"), "22.50"),
    ],
)
def test_an_amount_as_people_type_it_is_read_in_cents(typed, amount):
    read = parsing.amount(typed)
    assert read == Decimal(amount) and str(read) == amount


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("1000000000000", "amount_too_large"),
        ("1e14", "not_an_amount"),
        ("1e9999", "not_an_amount"),
        ("1e30", "not_an_amount"),
        ("１００", "not_an_amount"),
        ("١٠٠", "not_an_amount"),
        ("1_00", "not_an_amount"),
        ("1e3", "not_an_amount"),
        ("+100", "not_an_amount"),
        ("-5", "amount_negative"),
        ("-0", "amount_negative"),
        ("NaN", "not_an_amount"),
        ("Infinity", "not_an_amount"),
        ("0x10", "not_an_amount"),
        ("9" * 10_000, "amount_too_large"),
        ("x" * 10_000, "not_an_amount"),
        ("100.001", "amount_decimals"),
        ("100.000", "amount_decimals"),
        ("1,500", "not_an_amount"),  # an English thousands comma: not read as 1.5
        ("1.500,50", "not_an_amount"),
        ("100.", "not_an_amount"),
        (".5", "not_an_amount"),
        ("15 00", "not_an_amount"),  # grouping as nobody writes it
        ("1  500", "not_an_amount"),
        ("1\t500", "not_an_amount"),
        ("", "amount_required"),
        ("   ", "amount_required"),
        (None, "amount_required"),
        (1e308, "not_an_amount"),
        (100.0, "not_an_amount"),  # a float cannot hold cents exactly
        (True, "not_an_amount"),
        ([100], "not_an_amount"),
        ({"a": 1}, "not_an_amount"),
        (10**40, "amount_too_large"),
        pytest.param(10**5000, "amount_too_large", id="10**5000"),  # never made digits
        (-1, "amount_negative"),
        (Decimal("NaN"), "not_an_amount"),
        (Decimal("1e9999"), "amount_too_large"),
        (Decimal("0.001"), "amount_decimals"),
    ],
)
def test_anything_else_is_refused_with_its_reason(typed, code):
    with pytest.raises(Unreadable) as refused:
        parsing.amount(typed)
    assert refused.value.code == code


def test_zero_is_an_amount_only_where_it_may_be():
    assert parsing.amount("0") == 0
    with pytest.raises(Unreadable) as refused:
        parsing.amount("0,00", positive=True)
    assert refused.value.code == "amount_zero"


def test_what_was_typed_comes_back_short_and_harmless():
    with pytest.raises(Unreadable) as refused:
        parsing.amount("\u202e" + "x" * 100)
    assert refused.value.params["value"] == "x" * 15 + "…"


@given(st.decimals(min_value=0, max_value=Decimal("999999999999.99"), places=2))
def test_every_amount_reads_back_from_its_normalised_spelling(value):
    assert parsing.amount(str(parsing.amount(value))) == value


@pytest.mark.parametrize(
    ("typed", "label"),
    [
        ("P1", "P1"),
        ("  Иван  ", "Иван"),
        ("box-3  left", "box-3 left"),
        ("Ελένη", "Ελένη"),
        ("李雷", "李雷"),
        ("e\u0301", "\u00e9"),  # a combining accent, composed
        ("x" * 24, "x" * 24),
    ],
)
def test_a_seat_label_is_short_plain_text(typed, label):
    assert parsing.seat_label(typed) == label


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("\u202eP1", "seat_characters"),  # a right-to-left override
        ("P\u200b1", "seat_characters"),  # a zero-width space
        ("x" * 25, "seat_too_long"),  # refused, not cut
        ("x" * 41, "seat_too_long"),
        ("x" * 100_000, "seat_too_long"),
        ("P\x001", "seat_characters"),
        ("P\n1", "seat_characters"),
        ("P\t1", "seat_characters"),
        ("P\x1b[2J", "seat_characters"),
        ("<b>P1</b>", "seat_characters"),
        ("P١", "seat_characters"),  # digits are ASCII digits
        ("\u0301P", "seat_characters"),  # a combining mark on nothing
        ("   ", "seat_required"),
        ("", "seat_required"),
        (None, "seat_required"),
        (7, "seat_characters"),
        (["P1"], "seat_characters"),
    ],
)
def test_a_seat_label_that_is_not_one_is_refused(typed, code):
    with pytest.raises(Unreadable) as refused:
        parsing.seat_label(typed)
    assert refused.value.code == code


def test_a_player_card_is_a_label_of_its_own_length():
    assert parsing.player_card(" PC-1001 ") == "PC-1001"
    assert parsing.player_card("") == ""
    with pytest.raises(Unreadable) as refused:
        parsing.player_card("X" * 33)
    assert refused.value.code == "player_card_too_long"


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("-2", "count_negative"),
        ("two", "not_a_count"),
        ("2.5", "not_a_count"),
        ("１", "not_a_count"),
        ("+2", "not_a_count"),
        ("9" * 10_000, "count_too_large"),
        ("1000001", "count_too_large"),
        (10**40, "count_too_large"),
        (True, "not_a_count"),
    ],
)
def test_a_count_is_ascii_digits_within_its_bound(typed, code):
    with pytest.raises(Unreadable) as refused:
        parsing.count(typed, high=1_000_000)
    assert refused.value.code == code


def test_an_empty_count_is_zero():
    assert parsing.count("", high=10) == 0
    assert parsing.count(" 7 ", high=10) == 7
