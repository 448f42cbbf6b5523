"""``{% submission_field %}``: the idempotency token of a money form, a new one each time the
form is rendered (``cashdesk.forms.SentOnce``)."""

import uuid

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def submission_field():
    return format_html(
        '<input type="hidden" name="submission" value="{}" data-testid="submission">',
        uuid.uuid4().hex,
    )
