"""The WebSocket origin check compares scheme, host and port exactly: a page on another port
or scheme of the same host (``http://127.0.0.1:9999``) cannot open the app's sockets."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from tests.conftest import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


async def _connects(user, host: str, origin: str | None, **extra: str) -> bool:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers.append((b"cookie", (await database_sync_to_async(session_cookie_for)(user)).encode()))
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]
    communicator = WebsocketCommunicator(application, "/ws/inspector/", headers=headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


@pytest.fixture
def served_at_8000(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "pit.casino.example"]
    settings.WS_ALLOWED_ORIGINS = []


async def test_the_apps_own_origin_connects(crew, served_at_8000):
    assert await _connects(crew["inspector"], "127.0.0.1:8000", "http://127.0.0.1:8000")


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",  # another port of the same host: the reported attack
        "https://127.0.0.1:8000",  # another scheme
        "http://127.0.0.1",  # the default port is another port
        "http://evil.127.0.0.1:8000",
        "http://pit.casino.example:8000",  # an allowed host, but not this socket's origin
        "null",
        "",
        "http://127.0.0.1:8000/path",
        "http://user@127.0.0.1:8000",
        "*",
    ],
)
async def test_another_origin_is_refused(crew, served_at_8000, origin):
    assert not await _connects(crew["inspector"], "127.0.0.1:8000", origin)


async def test_no_origin_is_refused(crew, served_at_8000):
    assert not await _connects(crew["inspector"], "127.0.0.1:8000", None)


async def test_a_host_outside_allowed_hosts_is_refused_even_with_a_matching_origin(
    crew, served_at_8000
):
    assert not await _connects(crew["inspector"], "evil.example:8000", "http://evil.example:8000")


async def test_behind_the_tls_proxy_the_origin_is_https(crew, served_at_8000):
    inspector = crew["inspector"]
    host = "pit.casino.example"
    https = {"x-forwarded-proto": "https"}

    assert await _connects(inspector, host, "https://pit.casino.example", **https)
    assert not await _connects(inspector, host, "http://pit.casino.example", **https)
    assert not await _connects(inspector, host, "https://pit.casino.example:8443", **https)


async def test_a_configured_origin_connects_exactly(crew, settings):
    settings.ALLOWED_HOSTS = ["10.0.0.5"]
    settings.WS_ALLOWED_ORIGINS = ["https://pit.casino.example"]
    inspector = crew["inspector"]

    assert await _connects(inspector, "10.0.0.5:8000", "https://pit.casino.example")
    assert await _connects(inspector, "10.0.0.5:8000", "https://PIT.casino.example:443")
    assert not await _connects(inspector, "10.0.0.5:8000", "http://pit.casino.example")
    assert not await _connects(inspector, "10.0.0.5:8000", "https://pit.casino.example:8443")
    assert not await _connects(inspector, "10.0.0.5:8000", "https://x.pit.casino.example")
