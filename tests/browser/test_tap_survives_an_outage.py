"""The tap survives an outage (static/js/feed.js): while the tablet's socket is down each tap
waits in order — "offline — 3 taps waiting", in the tablet's language — and on reconnect they
go out with their ids, each applied once; the first refused one stops the queue and says
why, the rest are shown as not sent. Cut in Chromium through a proxy that drops the
connection mid-round; and with the server's (private) Redis restarted under two workers."""

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from game.models import Command, RoundEvent
from tests.browser.conftest import ARTIFACTS
from tests.browser.outage import CuttableProxy, PrivateRedis, start_daphne
from tests.browser.screens import TOUCH, assert_in_view
from tests.browser.tablet import Tablet, sign_in_with_password, sign_in_with_pin
from tests.desk import current_round

pytestmark = pytest.mark.browser

SIZES = [{"width": 1280, "height": 800}, {"width": 800, "height": 1280}]


@pytest.fixture
def proxy(live_url):
    target = urlparse(live_url)
    cuttable = CuttableProxy((target.hostname, target.port))
    yield cuttable
    cuttable.close()


def page_at(browser, url, locale="en-US", viewport=None):
    context = browser.new_context(
        base_url=url, locale=locale, viewport=viewport or {"width": 1280, "height": 800}
    )
    context.set_default_timeout(30_000)
    return context.new_page()


def to_the_deal(page) -> Tablet:
    """A round open, a bet on box 1, bets closed: the tablet waits for the first card."""
    tablet = Tablet(page)
    tablet.shuffle()
    tablet.tap("open-round")
    tablet.bet(1, 100)
    tablet.tap("close-bets")
    return tablet


def cards_dealt(table) -> list[str]:
    events = RoundEvent.objects.filter(round=current_round(table), type="card").order_by("seq")
    return [event.payload["command"]["card"] for event in events]


@pytest.mark.parametrize("viewport", SIZES, ids=["landscape", "portrait"])
def test_taps_made_offline_go_out_in_order_on_reconnect_each_once(
    browser, proxy, crew, table, viewport
):
    page = page_at(browser, proxy.url, viewport=viewport)
    try:
        sign_in_with_pin(page, "dealer")
        to_the_deal(page)
        proxy.cut()  # the tablet's network goes down mid-round
        expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-closed")
        for code in ("Th", "7c", "9d"):  # box 1, the dealer, box 1
            page.get_by_test_id(f"card-{code}").click()
        waiting = page.get_by_test_id("tap-queue")
        expect(waiting).to_have_text("offline — 3 taps waiting")
        assert_in_view(waiting, what="the waiting taps")  # in view, not covered
        for key in ("card-As", "card-Kc"):  # the pad still fits, keys as big as ever
            assert_in_view(page.get_by_test_id(key), min_width=TOUCH, min_height=TOUCH)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"offline-queue-{viewport['width']}.png"))
        assert cards_dealt(table) == []  # nothing reached the table

        proxy.restore()
        expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-open")
        expect(waiting).to_be_hidden()
        expect(page.get_by_test_id("hand-1-1").locator(".cards")).to_have_text(
            re.compile(r"^\s*10\s*♥\s*9\s*♦\s*$")
        )
        expect(page.get_by_test_id("dealer-hand").locator(".cards")).to_contain_text("7")
        expect(page.get_by_test_id("table-error")).to_be_empty()
        assert cards_dealt(table) == ["Th", "7c", "9d"]  # in order, each once
        assert Command.objects.filter(table=table, action="card").count() == 3
    finally:
        page.context.close()


def test_the_first_refused_tap_stops_the_queue_and_the_rest_are_not_sent(
    browser, proxy, new_page, crew, table
):
    page = page_at(browser, proxy.url)
    inspector = new_page()  # the inspector's own network stays up
    try:
        sign_in_with_pin(page, "dealer")
        to_the_deal(page)
        sign_in_with_password(inspector, "inspector", live=False)
        inspector.goto(f"/game/tables/{table.pk}/watch/")
        expect(inspector.get_by_test_id("conn-state")).to_have_class("conn conn-open")

        proxy.cut()
        for code in ("Th", "7c", "9d"):
            page.get_by_test_id(f"card-{code}").click()
        expect(page.get_by_test_id("tap-queue")).to_have_text("offline — 3 taps waiting")
        # meanwhile the inspector voids the round: the tablet's taps were made on a table
        # that has moved on
        inspector.get_by_test_id("void-open").click()
        inspector.get_by_test_id("void-reason").fill("Misdeal")
        inspector.get_by_test_id("void").click()
        expect(inspector.get_by_test_id("phase")).to_have_text("Round voided")

        proxy.restore()
        error = page.get_by_test_id("table-error")
        expect(error).to_have_attribute("data-code", "stale")
        expect(error).to_contain_text("changed the table a moment ago")
        queue = page.get_by_test_id("tap-queue")
        expect(queue).to_have_text("Not sent: 7♣ · 9♦")
        expect(queue).to_have_attribute("data-state", "not-sent")
        assert_in_view(queue, what="the taps not sent")
        expect(page.get_by_test_id("phase")).to_have_text("Round voided")
        assert cards_dealt(table) == []
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("taps", "text"),
    [
        (1, "нет связи — ждёт 1 нажатие"),
        (3, "нет связи — ждут 3 нажатия"),
        (5, "нет связи — ждут 5 нажатий"),
    ],
)
def test_the_waiting_taps_are_counted_in_russian_plural_forms(
    browser, proxy, crew, table, taps, text
):
    crew["dealer"].preferred_language = "ru"
    crew["dealer"].save(update_fields=["preferred_language"])
    page = page_at(browser, proxy.url, locale="ru-RU")
    try:
        sign_in_with_pin(page, "dealer")
        to_the_deal(page)
        proxy.cut()
        expect(page.get_by_test_id("conn-state")).to_have_class("conn conn-closed")
        for code in ("Th", "7c", "9d", "2s", "3s")[:taps]:
            page.get_by_test_id(f"card-{code}").click()
        expect(page.get_by_test_id("tap-queue")).to_have_text(text)
    finally:
        proxy.restore()
        page.context.close()


@pytest.fixture
def private_redis():
    server = PrivateRedis()
    yield server
    server.stop()


@pytest.fixture
def two_workers(private_redis, live_url):
    """Two more daphne workers on the test database whose feed goes through the private
    Redis (the session's live server keeps its own settings)."""
    from django.db import connections

    db_name = connections["default"].settings_dict["NAME"]
    started = [start_daphne(str(db_name), private_redis.url, "outage") for _ in range(2)]
    yield [url for _process, url in started]
    for process, _url in started:
        process.terminate()
        process.join(10)


def test_taps_go_on_and_every_screen_catches_up_when_the_servers_redis_restarts(
    browser, private_redis, two_workers, crew, table
):
    worker_a, worker_b = two_workers
    dealer = page_at(browser, worker_a)
    observer = page_at(browser, worker_b)  # another worker: it hears of taps through Redis
    try:
        sign_in_with_pin(dealer, "dealer")
        sign_in_with_pin(observer, "observer")
        tablet = to_the_deal(dealer)
        expect(observer.get_by_test_id("phase")).to_have_text("Dealing")

        private_redis.stop()  # the server's Redis goes down mid-round
        tablet.card("Th")  # the tablet's socket does not depend on Redis: taps go on
        tablet.card("7c")
        expect(dealer.get_by_test_id("table-error")).to_be_empty()
        private_redis.start()  # back, empty: the worker's subscription reconnects
        # what the observer's worker missed while Redis was away comes from the database
        expect(observer.get_by_test_id("hand-1-1")).to_contain_text("10")
        expect(observer.get_by_test_id("dealer-hand")).to_contain_text("7")
        tablet.card("9d")  # and the next tap reaches it live again
        expect(observer.get_by_test_id("hand-1-1").locator(".cards")).to_have_text(
            re.compile(r"^\s*10\s*♥\s*9\s*♦\s*$")
        )
        assert cards_dealt(table) == ["Th", "7c", "9d"]
    finally:
        dealer.context.close()
        observer.context.close()
