import contextvars
import re
import threading
from collections import OrderedDict
from contextlib import contextmanager
from decimal import Decimal

from django import template
from django.template.base import TokenType
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from game.configuration import rule_fields
from game.table.cards import card_name as _card_name

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
    "card-down": _("Dealt face down"),
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
def preset_name(name) -> str:
    """A rule preset's name in the person's language."""
    return rule_fields.preset_name(name)


@register.filter
def rules_text(value) -> str:
    """A stored rule set in words: "preset standard; Decks in the shoe: 4"."""
    rules = rule_fields.rules_dict(value)
    parts = [str(_("preset %(name)s") % {"name": rule_fields.preset_name(rules.pop("preset"))})]
    parts += [
        f"{rule_fields.label(key)}: {rule_fields.value_label(key, item)}"
        for key, item in sorted(rules.items())
    ]
    return "; ".join(parts)


# -- one box of the table fragment, rendered once per distinct box ---------------------------

BOX_TEMPLATE = "game/live.html#box"
BOX_CACHE_SIZE = 4096  # distinct (box, language, …) renders kept per process (≈ 1.5 KB each)
_boxes: OrderedDict[tuple, str] = OrderedDict()
_boxes_lock = threading.Lock()


def box_cache_clear() -> None:
    with _boxes_lock:
        _boxes.clear()


@register.simple_tag(takes_context=True)
def box_part(context, box: dict) -> str:
    """One box of the table fragment (the ``box`` partial of game/live.html). A command
    changes a box or two of seven: a box is rendered again only when something it shows
    changed — its view (``presenters._boxes_view``: pure data), the round's phase, whether
    it is reserved, the table's limits, the language — and otherwise comes from this
    process's memory of its last renders. The fragment stays complete; only its rendering
    is cheaper (tests/game/test_every_push_equals_a_fresh_render.py: every push, rendered with
    the boxes remembered, equals a render from nothing, for every command kind)."""
    table = context.get("table")
    reserved = box["number"] in (context.get("reserved") or ())
    limits = (str(getattr(table, "min_bet", "")), str(getattr(table, "max_bet", "")))
    may = context.get("may") or {}
    dealing = bool(may.get("deal"))  # the dealer's controls on the box (staff.permissions)
    key = (get_language(), context.get("phase"), reserved, limits, dealing, repr(box))
    with _boxes_lock:
        html = _boxes.get(key)
        if html is not None:
            _boxes.move_to_end(key)
            return html
    html = mark_safe(  # noqa: S308 - a template's own (escaped) output
        get_template(BOX_TEMPLATE).render(
            {
                "box": box,
                "phase": context.get("phase"),
                "reserved": context.get("reserved") or (),
                "table": table,
                "may": {"deal": dealing},
            }
        )
    )
    with _boxes_lock:
        _boxes[key] = html
        while len(_boxes) > BOX_CACHE_SIZE:
            _boxes.popitem(last=False)
    return html


# -- the part of the table fragment every kind of screen shares, rendered once a message -----

_shared: contextvars.ContextVar[dict | None] = contextvars.ContextVar("shared_parts", default=None)


@contextmanager
def shared_parts():
    """While one view of a table is rendered for several kinds of screen (the dealer's, the
    observer's, the inspector's...: ``game.publish.table_message``), each ``{% shared %}``
    block of the fragment is rendered once per language and reused by the other kinds: only
    what differs — each kind's controls (staff.permissions) — is rendered per kind. Outside
    this context a block renders as it stands."""
    token = _shared.set({})
    try:
        yield
    finally:
        _shared.reset(token)


class SharedNode(template.Node):
    def __init__(self, name: str, nodelist):
        self.name = name
        self.nodelist = nodelist

    def render(self, context) -> str:
        memo = _shared.get()
        if memo is None:
            return self.nodelist.render(context)
        key = (self.name, get_language())
        html = memo.get(key)
        if html is None:
            html = memo[key] = self.nodelist.render(context)
        return html


# What a shared block may not hold: ``may`` (the kind's controls), or a tag that reads it.
_PER_KIND = re.compile(r"\bmay\b|\bbox_part\b")


@register.tag("shared")
def shared(parser, token):
    """``{% shared "name" %}…{% endshared %}``: a part of the table fragment the same for every
    kind of screen. A block that reads ``may`` (the kind's controls), directly or through
    ``box_part``, is refused when the template is compiled."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% shared %} takes one name")
    ahead = list(parser.tokens)  # in reverse: parse() pops from the end
    nodelist = parser.parse(("endshared",))
    inside = ahead[len(parser.tokens) :]
    parser.delete_first_token()
    for part in inside:
        if part.token_type != TokenType.TEXT and _PER_KIND.search(part.contents):
            raise template.TemplateSyntaxError(
                f"{{% shared {bits[1]} %}} reads a kind's controls: {part.contents!r}"
            )
    return SharedNode(bits[1].strip("\"'"), nodelist)
