"""docs/sources.md#opening-procedure: the cards are prepared in the order the procedure
writes — spread, the opening player's check, turned over, mixed, shuffled, cut (where, kept),
the cut card (where, within the rule set's window), the shoe — each step after the one before."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from game.configuration.services import table_configure
from tables import services
from tables.checklists import CARD_SEQUENCE
from tests.tables.conftest import OPENING_DATA

pytestmark = pytest.mark.django_db


def _step(checklist, crew, step, **data):
    return services.checklist_step_record(
        checklist=checklist, step=step, done_by=crew["pitboss"], data=data
    )


def _start(table, crew):
    return services.checklist_start(table=table, kind="opening", started_by=crew["pitboss"])


def test_each_card_step_waits_for_the_one_before(closed_table, crew, make_table):
    checklist = _start(closed_table, crew)
    _step(checklist, crew, "sign_out")  # not a card step: any time
    with translation.override("en"), pytest.raises(ValidationError) as refusal:
        _step(checklist, crew, "shuffled")
    assert refusal.value.code == "step_out_of_order"
    assert refusal.value.messages[0].startswith("First: Cards spread face down: number of decks.")
    for step in CARD_SEQUENCE:
        if step in ("shuffled", "shoe_loaded"):
            continue
        _step(checklist, crew, step, **OPENING_DATA.get(step, {}))
        if step != "cut_card":
            with pytest.raises(ValidationError) as skipped:
                _step(checklist, crew, "shoe_loaded")
            assert skipped.value.code == "step_out_of_order"
        if step == "mixed":
            _step(checklist, crew, "shuffled")
    _step(checklist, crew, "shoe_loaded")
    done = list(checklist.steps.order_by("done_at", "pk").values_list("step", flat=True))
    assert [s for s in done if s in CARD_SEQUENCE] == CARD_SEQUENCE
    with translation.override("ru"):
        other = _start(make_table(9, status="closed"), crew)
        with pytest.raises(ValidationError) as russian:
            _step(other, crew, "turned")
        assert russian.value.messages[0].startswith("Сначала:")


def test_the_cut_and_the_cut_card_positions_are_recorded(closed_table, crew):
    table_configure(table=closed_table, changed_by=crew["pitboss"], rules={"preset": "hole-card"})
    closed_table.refresh_from_db()
    assert closed_table.cut_window == (26, 50)  # near the end of the pack
    checklist = _start(closed_table, crew)
    for step in CARD_SEQUENCE[:5]:
        _step(checklist, crew, step, **OPENING_DATA.get(step, {}))
    for bad in ("", "0", "312", "many"):
        with pytest.raises(ValidationError) as refusal:
            _step(checklist, crew, "cut", cut_at=bad)
        assert refusal.value.code == "bad_cut_position"
    assert _step(checklist, crew, "cut", cut_at="171").details == {"cut_at": 171}
    for bad in ("90", "25", "51", ""):
        with translation.override("en"), pytest.raises(ValidationError) as refusal:
            _step(checklist, crew, "cut_card", cards_behind_cut=bad)
        assert refusal.value.code == "bad_cut"
        assert refusal.value.messages == [
            "The cut card must leave between 26 and 50 cards behind it."
        ]
    assert _step(checklist, crew, "cut_card", cards_behind_cut="40").details == {
        "cards_behind_cut": 40
    }


def test_the_checklist_page_asks_where_and_shows_it(client, closed_table, crew, pitboss_en):
    client.force_login(crew["pitboss"])
    url = reverse("tables:table", kwargs={"table_id": closed_table.pk})
    client.post(url, {"op": "start_opening"})
    page = client.get(url).content.decode()
    assert 'data-testid="cut-at"' in page and "Cards behind the cut card (78–104)" in page
    steps = page.split('data-testid="step-')
    order = [s.split('"')[0] for s in steps[1:]]
    assert [s for s in order if s in CARD_SEQUENCE] == CARD_SEQUENCE
    refused = client.post(url, {"op": "step", "step": "turned"}, follow=True).content.decode()
    assert "First: Cards spread face down" in refused
    client.post(url, {"op": "step", "step": "cards", "decks": "6"})
    for step in ("spread_checked", "turned", "mixed", "shuffled"):
        client.post(url, {"op": "step", "step": step})
    client.post(url, {"op": "step", "step": "cut", "cut_at": "140"})
    page = client.post(
        url, {"op": "step", "step": "cut_card", "cards_behind_cut": "95"}, follow=True
    ).content.decode()
    assert "140 cards above the cut" in page and "95 cards behind the cut card" in page
