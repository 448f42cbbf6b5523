"""The WebSocket origin check: the exact origin (scheme, host and port) or nothing.

Channels' ``AllowedHostsOriginValidator`` matches the Origin's host name against
``ALLOWED_HOSTS`` only, so a page on ``http://127.0.0.1:9999`` may open the sockets of the
app on ``:8000``. Here an Origin is accepted when it is, exactly,

- the socket's own origin: the scheme the socket was reached by (``X-Forwarded-Proto`` from
  the proxy, the header Django trusts through ``SECURE_PROXY_SSL_HEADER``; otherwise
  ``http``) with the ``Host`` it was asked for, that host being in ``ALLOWED_HOSTS``, as
  Django's CSRF check does for forms; or
- one of ``WS_ALLOWED_ORIGINS`` (by default ``CSRF_TRUSTED_ORIGINS``), each a full
  ``scheme://host[:port]``.

Anything else, a missing Origin or ``null`` included, is refused before a consumer runs.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin such as ``https://pit.example``, or None when it
    is not one (a path, a user, a query, a wildcard, an unknown scheme or port)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or "*" in parts.netloc:
        return None
    if parts.username is not None or parts.path not in ("", "/") or parts.query:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def own_origin(scope) -> tuple[str, str, int] | None:
    """The origin the socket itself was asked for (``Host`` in ``ALLOWED_HOSTS``)."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return None
    proxy_header = settings.SECURE_PROXY_SSL_HEADER
    scheme = "http"
    if proxy_header:
        name = proxy_header[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if (_header(scope, name) or "").strip() == proxy_header[1]:
            scheme = "https"
    return origin_key(f"{scheme}://{host}")


def origin_allowed(scope) -> bool:
    """Whether the socket's Origin header is exactly its own origin or a configured one."""
    origin = _header(scope, b"origin")
    key = origin_key(origin) if origin else None
    if key is None:
        return False
    if key == own_origin(scope):
        return True
    return key in {origin_key(o) for o in settings.WS_ALLOWED_ORIGINS} - {None}


class ExactOriginValidator:
    """ASGI middleware: refuse a WebSocket whose Origin is not exactly an allowed origin."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("ExactOriginValidator guards WebSocket connections only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
