"""The language a person reads, for pages and for live screens."""

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def screen_language(scope) -> str:
    """The language a live screen reads (``scope``: the socket's ASGI scope): the person's
    choice, else the browser's (cookie, then Accept-Language), else the site default — as
    LocaleMiddleware and ``staff.middleware`` decide for pages."""
    languages = dict(settings.LANGUAGES)
    user = scope.get("user")
    if user is not None and user.is_authenticated and user.preferred_language in languages:
        return user.preferred_language
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in languages:
        return cookie
    accept = dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
