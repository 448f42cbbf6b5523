"""The browser harness: a live daphne in a separate process against the test database,
headless Debian Chromium driven by Playwright, and a screenshot of every page on failure.

Browser tests use ``transactional_db`` (through ``live_url``) so the server process sees
the rows a test writes; the SQLite test database is a file for the same reason.
"""

import os
import re
from functools import partial
from pathlib import Path

import pytest
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections

from tests.conftest import require_service

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HOST = "127.0.0.1"
START_TIMEOUT = 20


def _serve_test_database(db_name: str) -> None:
    """Runs in the server process before it serves: point it at the test database.

    Like channels' ``set_database_connection``, but with the name the parent really uses:
    after the test database is created, settings hold its name already, and channels'
    helper would prefix it a second time on PostgreSQL.
    """
    from django.conf import settings
    from django.contrib.auth import hashers

    settings.DATABASES["default"]["NAME"] = db_name
    connections["default"].settings_dict["NAME"] = db_name
    # Channel layers made in the parent (by earlier socket tests) belong to its event loop
    # and its Redis connections: the server process must build its own.
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    # So is asgiref's thread for thread-sensitive sync code (consumers' database calls): its
    # worker thread did not survive the fork, and calls queued to it would never run.
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    if HOST not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    # Test users are hashed with the fast hasher of tests/conftest.py; this process must
    # read those hashes (and its own PIN hashes) too.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


@pytest.fixture(scope="session")
def daphne_server(django_db_setup, django_db_blocker):
    """One live daphne for the session, in a forked process, on a free port."""
    with django_db_blocker.unblock():
        db_name = connections["default"].settings_dict["NAME"]
        if connections["default"].vendor == "sqlite" and (
            not db_name or str(db_name) == ":memory:" or "mode=memory" in str(db_name)
        ):
            pytest.fail("the live server needs a file or server database, not SQLite memory")
        # A forked child must not share the parent's open database sockets.
        connections.close_all()
        process = DaphneProcess(
            host=HOST,
            get_application=partial(make_application, static_wrapper=ASGIStaticFilesHandler),
            setup=partial(_serve_test_database, str(db_name)),
        )
        process.daemon = True
        # Forked while unblocked: the server process keeps database access for good.
        process.start()
    if not process.ready.wait(timeout=START_TIMEOUT):
        process.terminate()
        detail = "" if process.errors.empty() else process.errors.get(False)[1]
        pytest.fail(f"daphne did not start within {START_TIMEOUT} s\n{detail}")
    try:
        yield f"http://{HOST}:{process.port.value}"
    finally:
        process.terminate()
        process.join(timeout=10)


@pytest.fixture
def live_url(daphne_server, transactional_db):
    """The live server's address; the test's rows are committed, so the server sees them."""
    return daphne_server


@pytest.fixture(scope="package")
def browser(daphne_server):
    """Headless Debian Chromium (Playwright's own browser downloads are not used).

    One browser for all the browser tests, yet package-scoped rather than session-scoped:
    while Playwright's sync API is started it marks an asyncio loop as running in this
    thread, which would break every pytest-asyncio test collected after tests/browser/.
    For the same reason Django's sync-only guard is lifted while it runs: the tests' own
    ORM calls are sync code on this thread, not code inside that loop.
    """
    if not os.path.exists(CHROMIUM):
        require_service(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    guard = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
    finally:
        playwright.stop()
        if guard is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = guard


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item, so fixtures know at teardown if a test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def _failed(node) -> bool:
    return any(
        getattr(node, f"report_{when}", None) is not None and getattr(node, f"report_{when}").failed
        for when in ("setup", "call")
    )


@pytest.fixture
def new_page(request, browser, live_url):
    """A factory of pages, each in its own browser context (its own cookies: one person
    each). Reads English so assertions hold whatever the Russian catalogue says."""
    contexts = []

    def make(locale: str = "en-US", viewport: dict | None = None):
        context = browser.new_context(
            base_url=live_url, locale=locale, viewport=viewport or {"width": 1280, "height": 800}
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    if _failed(request.node):
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
        for n, context in enumerate(contexts):
            for m, page in enumerate(context.pages):
                try:
                    page.screenshot(path=str(ARTIFACTS / f"{name}-{n}-{m}.png"), full_page=True)
                except Exception as exc:  # noqa: BLE001 - a screenshot must not hide the failure
                    print(f"screenshot failed: {exc}")
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()
