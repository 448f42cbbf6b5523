"""A checklist step that is refused shows the reason and keeps what the pit boss typed in
its form (a float of many denominations is not typed twice); a password is never sent back."""

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import ChecklistStep, ChipCount
from tests.tables.conftest import open_table

pytestmark = pytest.mark.django_db


def _value(page: str, testid: str) -> str | None:
    """The value attribute of the input marked ``testid`` (None when it has none)."""
    tag = re.search(rf'<input[^>]*data-testid="{testid}"[^>]*>', page)
    assert tag, testid
    value = re.search(r'\bvalue="([^"]*)"', tag.group(0))
    return unescape(value.group(1)) if value else None


@pytest.fixture
def page_of(closed_table, pitboss_en):
    client = Client()
    client.force_login(pitboss_en)
    url = reverse("tables:table", kwargs={"table_id": closed_table.pk})

    def post(form):
        response = client.post(url, form)
        assert response.status_code == 400, "refused: the page again, not a redirect"
        return response.content.decode()

    post.client, post.url = client, url
    return post


def test_a_refused_float_shows_the_reason_and_keeps_every_count_and_the_note(page_of):
    page_of.client.post(page_of.url, {"op": "start_opening"})
    typed = {"count_25": "40", "count_100": "1e3", "count_500": "20", "float_note": "<short>"}
    page = page_of({"op": "step", "step": "chip_float", **typed})

    assert "The count of 100 chips must be a whole number, zero or more." in unescape(page)
    assert _value(page, "count-25") == "40"
    assert _value(page, "count-100") == "1e3"
    assert _value(page, "count-500") == "20"
    assert _value(page, "float-note") == "<short>"
    assert not ChipCount.objects.exists() and not ChecklistStep.objects.exists()

    # Loaded afresh, the form is empty again.
    fresh = page_of.client.get(page_of.url).content.decode()
    assert _value(fresh, "count-100") in (None, "")


def test_a_refused_step_keeps_what_was_typed_in_that_form_only(page_of):
    page_of.client.post(page_of.url, {"op": "start_opening"})
    page = page_of({"op": "step", "step": "cards", "decks": "7"})
    assert _value(page, "decks") == "7"
    assert _value(page, "count-25") in (None, "")  # another step's form stays empty


def test_a_refused_drop_box_keeps_the_witness_name_but_never_the_password(
    page_of, closed_table, crew
):
    open_table(closed_table, crew["pitboss"], crew["inspector"])
    page_of.client.post(page_of.url, {"op": "start_closing"})
    form = {
        "op": "step",
        "step": "drop_box",
        "seal": "D-9",
        "removed_by": str(crew["duty"].pk),
        "witness_identifier": "inspector",
        "witness_secret": "not-his-password",
    }
    page = page_of(form)
    assert _value(page, "seal") == "D-9"
    assert _value(page, "witness-identifier") == "inspector"
    assert _value(page, "witness-secret") in (None, "")
    assert "not-his-password" not in page
    assert f'<option value="{crew["duty"].pk}" selected>' in page
