"""The rough edges a shift of real use found (issue 21), looked at in Chromium as a person
sees them: the inspector's acknowledgement dialog on the dark theme, the cash report's
headers and charts in Russian, wide tables that scroll inside their box and say so, the
replacements list at 1280 px, the rotation form's button beside its field."""

import pytest
from playwright.sync_api import expect

from floor.alerts import alert_raise
from staff import replacements as staff_services
from staff.roles import TableRole
from tests.browser.screens import SIZES, assert_accessible, assert_in_view, look
from tests.browser.tablet import sign_in_with_password

pytestmark = pytest.mark.browser


def _rgb(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text[text.index("(") + 1 : text.index(")")].split(",")[:3])


def test_the_acknowledge_dialog_is_dark_and_readable(new_page, crew, table):
    alert_raise(table_id=table.pk, kind="flag", params={"note": "Box 2 paid twice"})
    page = new_page(locale="ru-RU")
    sign_in_with_password(page, "inspector")
    page.get_by_test_id(f"tile-{table.pk}").get_by_test_id("tile-ack").click()
    dialog = page.get_by_test_id("ack-dialog")
    expect(dialog).to_be_visible()
    background = _rgb(dialog.evaluate("el => getComputedStyle(el).backgroundColor"))
    assert sum(background) < 3 * 80, f"the dialog is light on the dark theme: {background}"
    assert_in_view(page.get_by_test_id("ack-note"), min_height=48, what="the note field")
    assert_accessible(page, "the acknowledgement dialog")
    look(page, "second-pass-ack-dialog", accessible=False)


def _headers_apart(page) -> list[str]:
    """Headers of each report table whose text sticks out of its cell or into the next."""
    return page.evaluate(
        """() => {
          const out = [];
          document.querySelectorAll("table.report thead tr").forEach(tr => {
            const cells = [...tr.children];
            cells.forEach((th, i) => {
              if (th.scrollWidth > th.clientWidth + 1) out.push(th.textContent + " overflows");
              const range = document.createRange(); range.selectNodeContents(th);
              const text = range.getBoundingClientRect();
              const next = cells[i + 1];
              if (next && text.right > next.getBoundingClientRect().left + 0.5)
                out.push(th.textContent + " runs into " + next.textContent);
            });
          });
          return out;
        }"""
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_cash_report_reads_in_russian_and_says_what_it_cannot_show(new_page, crew, size):
    page = new_page(locale="ru-RU", viewport=SIZES[size])
    sign_in_with_password(page, "duty", live=False)
    page.goto("/cash/reports/")
    expect(page.get_by_test_id("report-table")).to_be_visible()
    assert not _headers_apart(page)
    note = page.get_by_test_id("chart-hold-empty")
    expect(note).to_contain_text("нет пересчитанного дропа")
    # a table wider than the screen scrolls in its box and says so; one that fits does not
    for box in page.locator("[data-scroll-cue]").all():
        wider = box.evaluate("el => el.scrollWidth > el.clientWidth + 1")
        cue = box.locator("xpath=preceding-sibling::*[1]")
        expect(cue).to_have_class("scroll-cue")
        if wider:
            expect(cue).to_be_visible()
            assert_in_view(cue, what="the scroll cue")
        else:
            expect(cue).to_be_hidden()
    sideways = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert sideways <= 1, f"the report page scrolls sideways by {sideways} px"
    look(page, f"second-pass-report-ru-{size}")


def test_the_replacements_list_fits_1280_px(new_page, crew, table, make_user):
    from staff.roles import Role

    relief = make_user("relief", [Role.DEALING_CROUPIER], full_name="Relief Dealer")
    request = staff_services.replacement_request(
        table=table,
        role=TableRole.DEALING_CROUPIER,
        requested_by=crew["inspector"],
        reason="Hands shaking after a long shift; asked to be relieved before the next shoe",
    )
    staff_services.replacement_approve(
        request_id=request.pk,
        decided_by=crew["duty"],
        replacement=relief,
        note="Relief Dealer takes over at the round boundary",
    )
    page = new_page(locale="ru-RU")
    sign_in_with_password(page, "duty", live=False)
    page.goto("/staff/replacements/")
    expect(page.get_by_test_id(f"replacement-{request.pk}")).to_be_visible()
    sideways = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert sideways <= 1, f"the replacements page scrolls sideways by {sideways} px"
    expect(page.get_by_test_id("scroll-cue")).to_be_hidden()
    look(page, "second-pass-replacements")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_save_the_rotation_stands_beside_its_field(new_page, crew, table, size, locale):
    """The rotation's label sits on its field, and "Save the rotation" right beside the
    field — not across the label's width (it stood 200 px off, past an empty gap)."""
    page = new_page(locale=locale, viewport=SIZES[size])
    sign_in_with_password(page, "pitboss", live=False)
    page.goto("/tables/staff/")
    field = page.get_by_test_id("plan-minutes-1").bounding_box()
    button = page.get_by_test_id("plan-save-1").bounding_box()
    label = page.get_by_test_id("staff-table-1").locator(".plan-form label").bounding_box()
    assert abs((field["y"] + field["height"]) - (button["y"] + button["height"])) <= 2, (
        field,
        button,
    )
    assert abs(field["height"] - button["height"]) <= 2, (field, button)
    gap = button["x"] - (field["x"] + field["width"])
    assert 0 <= gap <= 16, f"{gap:.0f} px between the field and its button ({size}, {locale})"
    assert 0 <= field["y"] - (label["y"] + label["height"]) <= 12, (label, field)
    assert abs(label["x"] - field["x"]) <= 1, (label, field)
    for name in ("plan-minutes-1", "plan-save-1"):
        assert_in_view(page.get_by_test_id(name), min_height=48, what=f"{name} ({size})")
    look(page, f"second-pass-rotation-{size}-{locale[:2]}")
