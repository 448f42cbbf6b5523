"""A rule set as the pit boss chooses it: a preset, then one field per rule key with the
values the engine allows, in words, in the person's language — never typed JSON.

The keys and their allowed values come from the engine (``game.engine.rules``: ``KEYS``,
``CHOICES``, ``BOOLS``), so a key the engine adds appears here by itself (with its own name
until it gets a label below). What is saved is the preset and the keys that differ from it.
An engine refusal (a combination that cannot be played) is shown by the key it names, in
words.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game.engine import PRESETS, Rules, RulesError
from game.engine.rules import BOOLS, CHOICES, KEYS

# Whole-number keys and the values the engine takes (Rules._validate).
NUMBERS = {"decks": range(1, 9), "max_hands": range(1, 5), "max_boxes_per_player": range(0, 8)}

# A preset's short name where a sentence names it (the change history, the preset edges).
PRESET_NAMES = {
    "standard": _("standard"),
    "hole-card": _("hole card"),
    "open-cards": _("open cards"),
}


def preset_name(name) -> str:
    """The preset ``name`` in the person's language (the stored name where unknown)."""
    return str(PRESET_NAMES.get(name, name))


PRESET_LABELS = {
    "standard": _("Standard: one dealer card, all face up (documents 002 and 000)"),
    "hole-card": _("Hole card: peek on an ace or a ten (document 003)"),
    "open-cards": _("Open cards: both dealer cards face up (document 004)"),
}

LABELS = {
    "decks": _("Decks in the shoe"),
    "dealer_cards": _("Dealer's cards before the players act"),
    "dealer_hits_soft_17": _("The dealer draws on soft 17"),
    "blackjack_pays": _("Blackjack pays"),
    "ties": _("A tie"),
    "insurance": _("Insurance offered"),
    "insurance_amount": _("Insurance amount"),
    "even_money": _("Even money offered"),
    "double_on": _("Double on"),
    "double_after_split": _("Double after a split"),
    "double_card": _("The double's card"),
    "player_cards": _("The players' cards of the deal"),
    "max_hands": _("Hands on a box at most (splits)"),
    "resplit_aces": _("Aces may be split again"),
    "hit_split_aces": _("Split aces take more than one card"),
    "three_sevens": _("Three sevens bonus (3:1, of one suit 5:1)"),
    "dealer_blackjack_takes": _("A dealer Blackjack takes from doubled and split hands"),
    "blackjack_beats_dealer_blackjack": _("A player's Blackjack is paid against a dealer's"),
    "split_blackjack": _("A 21 of two cards on a split hand"),
    "split_deal": _("Split hands get their second card"),
    "max_boxes_per_player": _("Boxes per player at most"),
    "cut_card": _("The cut card leaves behind it"),
    "offer_double_9_11": _("The dealer offers the double on 9, 10 or 11"),
    "newcomer_consent": _("A newcomer takes a free box with the seated players' consent"),
    "burn_card": _("The first card after the shuffle is burnt"),
    "shuffle_every_round": _("Shuffle before every round"),
}

VALUE_LABELS = {
    ("dealer_cards", "one"): _("one card, the second after the players"),
    ("dealer_cards", "hole"): _("two, one face down (peek on an ace or a ten)"),
    ("dealer_cards", "open"): _("two, both face up"),
    ("ties", "push"): _("push: the bet stays"),
    ("ties", "dealer"): _("the dealer wins"),
    ("double_on", "any"): _("any two cards"),
    ("double_on", "9-11"): _("9, 10 or 11 only"),
    ("double_on", "10-11"): _("10 or 11 only"),
    ("dealer_blackjack_takes", "all"): _("everything on the box"),
    ("dealer_blackjack_takes", "original"): _("the original bet only"),
    ("split_blackjack", "twenty-one"): _("an ordinary 21, paid 1:1"),
    ("split_blackjack", "instant-win"): _("an instant win, paid 1:1 at once"),
    ("split_deal", "in-turn"): _("when its turn comes"),
    ("split_deal", "both-hands"): _("both at once, right after the split"),
    ("cut_card", "quarter-third"): _("a quarter to a third of the pack"),
    ("cut_card", "near-end"): _("26 to 50 cards, near the end"),
    ("cut_card", "in-play-200-220"): _("the rest after 200 to 220 of 312 cards played"),
    ("insurance_amount", "up-to-half"): _("any amount up to half the bet"),
    ("insurance_amount", "half"): _("exactly half the bet"),
    ("burn_card", "hole-card"): _("with a hole card only"),
    ("burn_card", "always"): _("always"),
    ("burn_card", "never"): _("never"),
    ("double_card", "face-up"): _("face up, entered at once"),
    ("double_card", "face-down"): _("face down, entered when turned at the end"),
    ("player_cards", "face-up"): _("face up, entered as dealt"),
    ("player_cards", "face-down"): _("face down, entered when turned at the box's turn"),
    ("max_boxes_per_player", 0): _("no limit"),
}

# The engine's refusals by the key they name, in words (the engine speaks English only).
REFUSALS = {
    "insurance": _("Insurance and even money cannot be offered when both dealer cards are open."),
    "dealer_blackjack_takes": _(
        "What a dealer Blackjack takes can be chosen only with one dealer card: with a peek "
        "or open cards the dealer's Blackjack is known before anyone doubles or splits."
    ),
    "resplit_aces": _("Splitting aces again needs at least 3 hands on a box."),
    "max_hands": _(
        "One hand on a box means no splits: double after a split and more cards on split "
        "aces must be off."
    ),
    "decks": _("Choose 1 to 8 decks."),
    "max_boxes_per_player": _("Choose 0 (no limit) to 7 boxes per player."),
}


def label(key: str) -> str:
    return str(LABELS.get(key, key.replace("_", " ")))


def value_label(key: str, value) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    return str(VALUE_LABELS.get((key, value), value))


def refusal_text(error: RulesError) -> str:
    """An engine refusal of a rule set, in the person's language."""
    key = error.params.get("key")
    text = REFUSALS.get(key)
    if text is not None:
        return str(text)
    return gettext("This combination of rules cannot be played (%(rule)s).") % {
        "rule": label(key) if key else "—"
    }


def rules_dict(table_rules) -> dict:
    """A table's stored rule set as ``{"preset": name, <overrides>}``."""
    if isinstance(table_rules, str):
        return {"preset": table_rules}
    rules = dict(table_rules or {})
    rules.setdefault("preset", "standard")
    return rules


def effective(rules: dict) -> dict:
    """Every key's value under ``rules`` (the preset's, where not overridden); for a rule
    set the engine refuses, the preset's values with the overrides laid over them."""
    preset = PRESETS.get(rules.get("preset"), PRESETS["standard"])
    values = preset.to_json()
    values.update({k: v for k, v in rules.items() if k in values})
    return values


def rule_field(key: str, default) -> forms.Field:
    """The form field of one rule key: a yes/no box, or a choice of the allowed values."""
    if key in BOOLS or isinstance(default, bool):
        return forms.BooleanField(label=label(key), required=False)
    if key in NUMBERS:
        choices = [(str(n), str(VALUE_LABELS.get((key, n), n))) for n in NUMBERS[key]]
        return forms.TypedChoiceField(label=label(key), choices=choices, coerce=int)
    allowed = CHOICES.get(key)
    if allowed is None:  # a key the screen does not know how to offer: shown as it is
        return forms.CharField(label=label(key), required=False, disabled=True)
    return forms.ChoiceField(label=label(key), choices=[(v, value_label(key, v)) for v in allowed])


def rule_keys() -> list[str]:
    return list(KEYS)


def overrides_of(preset: str, chosen: dict) -> dict:
    """The rule set to save: the preset and the keys whose chosen value differs from it."""
    base = Rules.preset(preset).to_json()
    return {"preset": preset, **{k: v for k, v in chosen.items() if k in base and v != base[k]}}
