"""An alert raised from a tablet reaches the inspector's dashboard within a second, and the
inspector acknowledges it there with a note."""

import pytest
from playwright.sync_api import expect

from tests.browser.tablet import sign_in_with_password, sign_in_with_pin

pytestmark = pytest.mark.browser


def test_an_observers_flag_reaches_the_inspectors_dashboard_within_a_second(new_page, crew, table):
    inspector = new_page()
    sign_in_with_password(inspector, "inspector")
    tile = inspector.get_by_test_id(f"tile-{table.pk}")
    expect(tile).to_have_attribute("data-attention", "0")
    observer = new_page()
    sign_in_with_pin(observer, "observer")

    observer.get_by_test_id("flag-note").fill("Box 4 was paid 3:2 on a split 21")
    observer.get_by_test_id("flag-send").click()

    alert = tile.get_by_test_id("tile-alert")
    expect(alert).to_contain_text("Box 4 was paid 3:2 on a split 21", timeout=1000)
    expect(tile).to_have_attribute("data-attention", "1", timeout=1000)

    tile.get_by_test_id("tile-ack").click()
    expect(inspector.get_by_test_id("ack-dialog-text")).to_contain_text("Box 4 was paid")
    inspector.get_by_test_id("ack-note").fill("Told the dealer; paid correctly now")
    inspector.get_by_test_id("ack-send").click()
    expect(inspector.get_by_test_id("ack-result")).to_have_text("Alert acknowledged.")
    expect(tile.get_by_test_id("tile-alert")).to_have_count(0)
    expect(tile).to_have_attribute("data-attention", "0")  # the note was its alert: seen

    inspector.goto("/tables/alerts/")
    row = inspector.get_by_test_id("alert-row").first
    expect(row).to_contain_text("Box 4 was paid 3:2 on a split 21")
    expect(row.get_by_test_id("ack-done")).to_contain_text("Told the dealer")
