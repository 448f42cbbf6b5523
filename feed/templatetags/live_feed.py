"""What the one client (static/js/feed.js) shows by itself, in the page's language."""

import json

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext

register = template.Library()

# One number of each CLDR plural category, for the gettext forms the browser then picks by
# Intl.PluralRules (Russian: 1 нажатие, 2 нажатия, 5 нажатий; English: 1 tap, 2 taps).
PLURAL_SAMPLES = {"one": 1, "few": 2, "many": 5, "other": 2}


def waiting_forms() -> dict[str, str]:
    """The line "offline — N taps waiting" in each plural form of the language, with
    ``%(count)s`` left for the browser to fill."""
    return {
        category: ngettext(
            "offline — %(count)s tap waiting", "offline — %(count)s taps waiting", sample
        )
        for category, sample in PLURAL_SAMPLES.items()
    }


@register.simple_tag
def tap_queue():
    """The tablet's line about taps that wait for the connection, or were not sent."""
    return format_html(
        '<p id="tap-queue" class="tap-queue" data-testid="tap-queue" role="status" '
        'aria-live="polite" data-waiting="{}" data-not-sent="{}" hidden></p>',
        json.dumps(waiting_forms(), ensure_ascii=False),
        gettext("Not sent: %(taps)s"),
    )
