from decimal import Decimal

from django import template
from django.utils.translation import gettext_lazy as _

from game import rule_fields
from game.presenters import card_name as _card_name

register = template.Library()


@register.filter
def card_name(code) -> str:
    """``Ad`` → ``A♦``: a card as people write it."""
    return _card_name(code)


@register.filter
def absolute(value):
    return abs(Decimal(str(value)))


COMMAND_LABELS = {
    "open-round": _("New round: place your bets"),
    "bet": _("Bet"),
    "remove-share": _("Remove stake"),
    "newcomer-refused": _("A player refused the newcomer"),
    "close-bets": _("Bets closed"),
    "card": _("Next card"),
    "stand": _("Stand"),
    "double": _("Double"),
    "split": _("Split"),
    "insure": _("Insure"),
    "even-money": _("Even money"),
    "insurance-closed": _("Close insurance"),
    "correct-card": _("Correct the last card"),
    "cut-card-out": _("The cut card came out"),
    "confirm-settlement": _("Paid and collected: close the round"),
    "void": _("Void round"),
}


@register.filter
def command_label(action: str) -> str:
    """A command of the event log in the croupier's words (the code where there are none)."""
    return str(COMMAND_LABELS.get(action, action))


@register.filter
def rules_text(value) -> str:
    """A stored rule set in words: "preset standard; Decks in the shoe: 4"."""
    rules = rule_fields.rules_dict(value)
    parts = [str(_("preset %(name)s") % {"name": rules.pop("preset")})]
    parts += [
        f"{rule_fields.label(key)}: {rule_fields.value_label(key, item)}"
        for key, item in sorted(rules.items())
    ]
    return "; ".join(parts)
