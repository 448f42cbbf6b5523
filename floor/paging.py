"""One page of a list: every list screen that grows without bound shows it a page at a time
(``LIST_PAGE_SIZE`` rows), with the pager partial ``templates/floor/_pages.html``.

``?<name>_page=N`` picks the page (``name`` tells apart several lists on one screen); a
number that is not one shows the first page, one past the end the last. The other query
parameters (filters, the other lists' pages) are kept in the pager's links.
"""

from django.conf import settings
from django.core.paginator import Page, Paginator

from floor.parsing import whole_number


def page_of(request, rows, *, name: str = "list", number=None, size: int | None = None) -> Page:
    """Page ``number`` (default: the request's ``<name>_page``) of ``rows``."""
    key = f"{name}_page"
    if number is None:
        number = whole_number(request.GET.get(key)) or 1
    page = Paginator(rows, size or settings.LIST_PAGE_SIZE).get_page(number)
    query = request.GET.copy()
    query.pop(key, None)
    page.name = name
    page.base_query = query.urlencode() + "&" if query else ""
    return page
