"""Issue 19 item 8 over HTTP: every form that takes an amount, a count or a label reads it
with the one bounded parser (floor.parsing), as the socket does
(tests/game/test_bad_input_on_the_socket.py). Each bad value is refused with a clear message
(400, or the checklist's message after its redirect), nothing is saved, and never a 500."""

from html import unescape

import pytest
from django.urls import reverse

from cashdesk.models import CashIn, DropCount, Tip
from tables.models import ChipCount, Table, TableChange
from tests.cashdesk.conftest import CHIPS, once, today

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english_crew")]


@pytest.fixture
def cash_table(table, crew):
    table.chip_denominations = CHIPS
    table.save(update_fields=["chip_denominations"])
    return table


NOT_AN_AMOUNT = "is not an amount: write digits, such as 1500 or 1 500,50"
TOO_LARGE = "That amount is too large."

# (what the field carries — None: the field is not sent at all —, words of the refusal)
AMOUNTS = [
    ("1000000000000", TOO_LARGE),
    ("1e14", "“1e14” " + NOT_AN_AMOUNT),
    ("1e9999", "“1e9999” " + NOT_AN_AMOUNT),
    ("1e30", "“1e30” " + NOT_AN_AMOUNT),
    ("１００", "“１００” " + NOT_AN_AMOUNT),
    ("١٠٠", NOT_AN_AMOUNT),
    ("1_00", "“1_00” " + NOT_AN_AMOUNT),
    ("1e3", "“1e3” " + NOT_AN_AMOUNT),
    ("+100", "“+100” " + NOT_AN_AMOUNT),
    ("-5", "An amount cannot be negative."),
    ("NaN", "“NaN” " + NOT_AN_AMOUNT),
    ("Infinity", "“Infinity” " + NOT_AN_AMOUNT),
    ("0x10", "“0x10” " + NOT_AN_AMOUNT),
    ("9" * 10_000, TOO_LARGE),
    ("100.001", "At most two decimal places."),
    ("", "Enter an amount."),
    (None, "Enter an amount."),
    ("1e308", "“1e308” " + NOT_AN_AMOUNT),
    ("true", "“true” " + NOT_AN_AMOUNT),
    ("[100]", "“[100]” " + NOT_AN_AMOUNT),
    ("0", "The amount must be greater than zero."),
]


def _post(data: dict, name: str, typed) -> dict:
    return {**data, **({} if typed is None else {name: typed})}


def tip(client, crew, table, typed):
    client.force_login(crew["dealer"])
    url = reverse("cashdesk:tip", args=[table.pk])
    data = once({"box": "1", "note": "a regular"})
    return client.post(url, _post(data, "amount", typed)), lambda: Tip.objects.count()


def drop(client, crew, table, typed):
    client.force_login(crew["duty"])
    data = once({"table": table.pk, "gaming_day": today().isoformat()})
    response = client.post(reverse("cashdesk:drop"), _post(data, "amount", typed))
    return response, lambda: DropCount.objects.count()


def table_maximum(client, crew, table, typed):
    from tests.tables.test_configuration import config_data

    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    client.force_login(crew["pitboss"])
    data = config_data(table)
    data.pop("max_bet")
    response = client.post(
        reverse("game:table_config", args=[table.pk]), _post(data, "max_bet", typed)
    )
    return response, lambda: (
        TableChange.objects.count(),
        str(Table.objects.get(pk=table.pk).max_bet),
    )


@pytest.mark.parametrize("form", [tip, drop, table_maximum])
@pytest.mark.parametrize(("typed", "words"), AMOUNTS)
def test_a_bad_amount_is_refused_by_every_form_and_nothing_is_saved(
    client, crew, cash_table, form, typed, words
):
    _, saved = form(client, crew, cash_table, "100")  # the form works with a good amount
    before = saved()
    response, saved = form(client, crew, cash_table, typed)
    assert response.status_code == 400
    assert words in unescape(response.content.decode())
    assert saved() == before


@pytest.mark.parametrize(("typed", "words"), AMOUNTS[:-1])
def test_a_bad_amount_in_the_round_search_is_refused(client, crew, typed, words):
    client.force_login(crew["duty"])
    query = {} if typed is None else {"min_total_bet": typed}
    response = client.get(reverse("game:replay_search"), {"table": "", **query})
    if typed in ("", None):  # an optional field: no bound is no filter
        assert response.status_code == 200
        return
    assert response.status_code == 400
    assert words in unescape(response.content.decode())


COUNTS = [
    ("1e3", "“1e3” is not a whole number of notes."),
    ("１", "“１” is not a whole number of notes."),
    ("٣", "“٣” is not a whole number of notes."),
    ("+1", "“+1” is not a whole number of notes."),
    ("1_0", "“1_0” is not a whole number of notes."),
    ("1.5", "“1.5” is not a whole number of notes."),
    ("0x10", "“0x10” is not a whole number of notes."),
    ("NaN", "“NaN” is not a whole number of notes."),
    ("-5", "A count cannot be negative."),
    ("9" * 10_000, "That count is too large."),
    ("1000001", "That count is too large."),
]


@pytest.mark.parametrize(("typed", "words"), COUNTS)
def test_a_bad_count_of_notes_is_refused_and_no_cash_in_recorded(
    client, crew, cash_table, typed, words
):
    client.force_login(crew["dealer"])
    url = reverse("cashdesk:cash_in", args=[cash_table.pk])
    response = client.post(url, once({"note-1000": typed, "chip-1000": "1"}))
    assert response.status_code == 400
    assert words in unescape(response.content.decode())
    assert not CashIn.objects.exists()


@pytest.mark.parametrize(
    "denomination", ["1e3", "１０００", "1_000", "+1000", "1000.001", "NaN", "9" * 500]
)
def test_a_denomination_spelled_otherwise_names_none(client, crew, cash_table, denomination):
    client.force_login(crew["dealer"])
    url = reverse("cashdesk:cash_in", args=[cash_table.pk])
    response = client.post(url, once({f"note-{denomination}": "1", "chip-1000": "1"}))
    assert response.status_code == 400
    assert "is not a denomination of the notes here." in unescape(response.content.decode())
    assert not CashIn.objects.exists()


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ("\u202ePC-1001", "A player card is letters, digits and “-”."),
        ("PC\x00-1001", "Null characters are not allowed."),  # Django's own words
        ("PC\n1001", "A player card is letters, digits and “-”."),
        ("+1+1", "A player card is letters, digits and “-”."),
        ("X" * 33, "A player card is at most 32 characters."),
        ("X" * 41, "A player card is at most 32 characters."),
    ],
)
def test_a_player_card_that_is_not_one_is_refused_not_cut(client, crew, cash_table, card, words):
    client.force_login(crew["dealer"])
    url = reverse("cashdesk:cash_in", args=[cash_table.pk])
    post = once({"note-1000": "1", "chip-1000": "1", "player_card": card})
    response = client.post(url, post)
    assert response.status_code == 400
    assert words in unescape(response.content.decode())
    assert not CashIn.objects.exists()


@pytest.mark.parametrize(
    "typed", ["1e3", "１", "+1", "-1", "1.5", "NaN", "9" * 10_000, "1000001", "[4]", "true"]
)
def test_a_bad_chip_count_at_opening_is_refused_and_nothing_counted(client, crew, table, typed):
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.CLOSED, chip_denominations=["25", "100"]
    )
    client.force_login(crew["pitboss"])
    url = reverse("tables:table", kwargs={"table_id": table.pk})
    client.post(url, {"op": "start_opening"})
    step = {"op": "step", "step": "chip_float", "count_25": typed, "count_100": "1"}
    page = unescape(client.post(url, step, follow=True).content.decode())
    assert "The count of 25 chips must be a whole number, zero or more." in page
    assert not ChipCount.objects.exists()
