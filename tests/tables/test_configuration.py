"""Table configuration: validated by the engine, only while closed, every change kept."""

import html
import re
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from game.configuration.forms import TableConfigForm
from game.configuration.services import house_edge, table_configure
from tables.formats import percent
from tables.models import Table, TableChange


def test_configuration_change_is_saved_with_who_and_what(closed_table, crew):
    table_configure(
        table=closed_table,
        changed_by=crew["pitboss"],
        min_bet=Decimal("25"),
        rules={"preset": "standard", "decks": 4},
    )
    closed_table.refresh_from_db()
    assert closed_table.min_bet == Decimal("25")
    change = TableChange.objects.get(table=closed_table)
    assert change.changed_by == crew["pitboss"]
    assert change.changes["min_bet"][1] == "25"
    assert change.changes["rules"][1] == {"preset": "standard", "decks": 4}


def test_changing_rules_on_an_open_table_is_refused(table, crew):
    with pytest.raises(ValidationError) as refusal:
        table_configure(table=table, changed_by=crew["pitboss"], rules={"decks": 4})
    assert refusal.value.code == "table_not_closed"
    table.refresh_from_db()
    assert table.rules == {"preset": "standard"}
    assert not TableChange.objects.exists()


def test_rules_the_engine_refuses_are_refused_in_words(closed_table, crew):
    with translation.override("en"), pytest.raises(ValidationError) as refusal:
        table_configure(
            table=closed_table, changed_by=crew["pitboss"], rules={"preset": "standard", "decks": 0}
        )
    assert "Choose 1 to 8 decks." in str(refusal.value)  # in words, in the person's language
    assert not TableChange.objects.exists()


def test_par_float_outside_the_chip_set_is_refused(closed_table, crew):
    with pytest.raises(ValidationError):
        table_configure(table=closed_table, changed_by=crew["pitboss"], par_float={"5000": 10})


def config_data(table, **changes) -> dict:
    """What the configuration screen posts as first shown for ``table``, with ``changes``
    (``rule_<key>`` for a rule; a yes/no rule is sent only when yes, as a checkbox is)."""
    form = TableConfigForm(instance=Table.objects.get(pk=table.pk))
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if hasattr(value, "pk"):
            value = value.pk
        data[name] = value
    data.update(changes)
    return {
        k: ("on" if v is True else v) for k, v in data.items() if v is not False and v is not None
    }


def test_config_screen_shows_the_edge_and_a_rule_per_field(client, closed_table, pitboss_en):
    client.force_login(pitboss_en)
    url = reverse("game:table_config", kwargs={"table_id": closed_table.pk})
    page = client.get(url).content.decode()
    assert "+0.50" in page  # the standard preset's infinite-deck edge (with resplits)
    assert 'name="rule_decks"' in page and 'name="rule_dealer_hits_soft_17"' in page
    assert "JSON" not in page
    # open cards with insurance: the engine refuses it, said in words by the field
    refused = client.post(
        url, config_data(closed_table, rule_dealer_cards="open", boxes=6)
    ).content.decode()
    assert "Insurance and even money cannot be offered when both dealer cards are open." in refused
    assert Table.objects.get(pk=closed_table.pk).boxes == 7
    assert (
        client.post(
            url,
            config_data(
                closed_table, rule_decks="4", boxes=6, chips="25, 100, 500", par="100 = 40"
            ),
        ).status_code
        == 302
    )
    saved = Table.objects.get(pk=closed_table.pk)
    assert (saved.boxes, saved.rules, saved.par_float, saved.decks) == (
        6,
        {"preset": "standard", "decks": 4},
        {"100": 40},
        4,
    )


def test_the_house_edge_is_recomputed_as_the_rules_are_chosen(client, closed_table, pitboss_en):
    client.force_login(pitboss_en)
    url = reverse("game:table_config_rules", kwargs={"table_id": closed_table.pk})
    data = config_data(closed_table, preset="open-cards", preset_shown="standard")
    part = client.post(url, data).content.decode()
    # the preset changed: its own values are shown, and its edge
    assert 'id="rules-fieldset"' in part
    assert re.search(r'name="rule_dealer_cards"[^>]*>.*?<option value="open" selected', part, re.S)
    with translation.override("en"):
        shown = percent(house_edge({"preset": "open-cards"}))
    assert shown in part
    data = config_data(
        closed_table,
        preset="open-cards",
        preset_shown="open-cards",
        rule_dealer_cards="open",
        rule_dealer_hits_soft_17=True,
        rule_blackjack_pays="1:1",
        rule_ties="push",
        rule_insurance=False,
        rule_even_money=False,
        rule_three_sevens=False,
        rule_blackjack_beats_dealer_blackjack=True,
    )
    part = client.post(url, data).content.decode()
    assert "the players have the edge" in part  # a negative house edge warns at once
    with translation.override("en"):
        chosen = percent(house_edge({"preset": "open-cards", "ties": "push"}))
    assert chosen in part
    assert Table.objects.get(pk=closed_table.pk).rules == {"preset": "standard"}  # nothing saved


def test_config_screen_refuses_changes_on_an_open_table(client, table, pitboss_en):
    client.force_login(pitboss_en)
    url = reverse("game:table_config", kwargs={"table_id": table.pk})
    form = {
        "number": 1,
        "name": "BJ-1",
        "pit": table.pit_id,
        "boxes": 6,
        "min_bet": "10",
        "max_bet": "500",
        "card_entry": "manual",
        "reservation_minutes": 20,
        "preset": "standard",
    }
    page = client.post(url, form).content.decode()
    assert "change only while the table is closed" in page
    assert Table.objects.get(pk=table.pk).boxes == 7


def test_a_minimum_above_the_maximum_is_refused_in_words_not_by_constraint_name(
    client, closed_table, pitboss_en
):
    client.force_login(pitboss_en)
    url = reverse("game:table_config", kwargs={"table_id": closed_table.pk})
    form = {
        "number": 1,
        "name": "BJ-1",
        "pit": closed_table.pit_id,
        "boxes": 7,
        "min_bet": "600",
        "max_bet": "500",
        "card_entry": "manual",
        "reservation_minutes": 20,
        "preset": "standard",
    }
    page = client.post(url, form).content.decode()
    assert "The maximum bet cannot be below the minimum bet." in page
    assert "table_min_bet_not_above_max" not in page
    assert Table.objects.get(pk=closed_table.pk).min_bet == Decimal("10")


def test_the_history_reads_as_words_not_python(client, closed_table, pitboss_en):
    table_configure(
        table=closed_table,
        changed_by=pitboss_en,
        chip_denominations=["100", "500"],
        rules={"preset": "standard", "decks": 4},
        max_bet=Decimal("1500"),
    )
    client.force_login(pitboss_en)
    page = client.get(reverse("game:table_config", kwargs={"table_id": closed_table.pk}))
    history = page.content.decode().split('data-testid="history"')[1]
    assert "[" not in history and "{" not in history and "'" not in history
    assert "100, 500" in history
    # a rule set in words, the same in either key order (PostgreSQL's jsonb keeps its own)
    assert "rule set: preset standard → preset standard; Decks in the shoe: 4;" in history
    assert "maximum bet: 500.00 → 1,500.00" in history  # the one money format


def test_the_variant_keys_of_issue_23_are_fields_in_words_and_saved_as_overrides(
    client, closed_table, pitboss_en
):
    """Exact-half insurance, the burn, a shuffle before every round and 002's cut window are
    chosen on the screen like any rule (docs/engine.md, "Rule set keys")."""
    client.force_login(pitboss_en)
    url = reverse("game:table_config", kwargs={"table_id": closed_table.pk})
    page = client.get(url).content.decode()
    for text in (
        "Insurance amount",
        "exactly half the bet",
        "The first card after the shuffle is burnt",
        "with a hole card only",
        "Shuffle before every round",
        "the rest after 200 to 220 of 312 cards played",
        "The double's card",
        "face down, entered when turned at the end",
        "The players' cards of the deal",  # docs/sources.md#players-cards-face-down
        "face down, entered when turned at the box's turn",
    ):
        assert html.escape(text) in page, text
    posted = client.post(
        url,
        config_data(
            closed_table,
            rule_insurance_amount="half",
            rule_burn_card="always",
            rule_shuffle_every_round=True,
            rule_cut_card="in-play-200-220",
            rule_double_card="face-down",
            rule_player_cards="face-down",
        ),
    )
    assert posted.status_code == 302
    assert Table.objects.get(pk=closed_table.pk).rules == {
        "preset": "standard",
        "insurance_amount": "half",
        "burn_card": "always",
        "shuffle_every_round": True,
        "cut_card": "in-play-200-220",
        "double_card": "face-down",
        "player_cards": "face-down",
    }
