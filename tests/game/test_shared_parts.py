"""The part of a table's fragment every kind of screen shows is rendered once per message
(``{% shared %}``, game/templatetags/live.py), each kind's controls apart: what a kind gets is
exactly what it got when everything was rendered per kind, and a shared block that would read a
kind's controls is refused when the template is compiled."""

import pytest
from django.template import Context, Template, TemplateSyntaxError

from game.screens.publish import LIVE_FRAGMENTS, render_fragment, table_view
from game.templatetags.live import shared_parts

pytestmark = pytest.mark.django_db(transaction=True)

KINDS = [*LIVE_FRAGMENTS.values(), "tile"]


def _every_kind(view, shared: bool) -> dict:
    """Every kind in both languages: in one message (as ``table_message`` renders the pairs
    some screen watches), or each render on its own."""
    pairs = [(kind, language) for language in ("en", "ru") for kind in KINDS]
    if not shared:
        return {pair: render_fragment(view, *pair) for pair in pairs}
    with shared_parts():
        return {pair: render_fragment(view, *pair) for pair in pairs}


@pytest.mark.parametrize("step", ["betting", "dealt", "settled"])
def test_every_kind_gets_what_a_render_of_its_own_gives(dealer_desk, observer_desk, table, step):
    desk = dealer_desk
    desk.start_round({1: 100, 3: 50})
    observer_desk.ok("flag", note="check box 3")
    if step != "betting":
        desk.ok("close-bets")
        desk.cards("8s", "5h", "9d", "Kc", "7c")
    if step == "settled":
        desk.ok("stand")
        desk.ok("stand")
        desk.cards("Td")
    view = table_view(table.pk)
    alone = _every_kind(view, shared=False)
    together = _every_kind(view, shared=True)
    assert together == alone
    # ...and the kinds do differ: the shared render did not hand one kind's controls to another
    assert together["live", "en"] != together["live-observer", "en"]
    assert 'data-testid="flag-form"' in together["live-observer", "en"]
    assert 'data-testid="flag-form"' not in together["live", "en"]


@pytest.mark.parametrize(
    "block",
    [
        "{% if may.deal %}x{% endif %}",
        "{{ may }}",
        "{% for box in boxes %}{% box_part box %}{% endfor %}",
    ],
)
def test_a_shared_block_that_reads_a_kinds_controls_is_refused(block):
    with pytest.raises(TemplateSyntaxError, match="reads a kind's controls"):
        Template('{% load live %}{% shared "part" %}' + block + "{% endshared %}")


def test_a_shared_block_renders_once_per_language_inside_a_message():
    template = Template('{% load live %}{% shared "part" %}{{ n }}{% endshared %}')
    with shared_parts():
        first = template.render(Context({"n": 1}))
        second = template.render(Context({"n": 2}))
    outside = template.render(Context({"n": 2}))
    assert (first, second, outside) == ("1", "1", "2")
