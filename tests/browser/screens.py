"""Looking at a screen as a person does: what must be tapped is inside the viewport, not
covered by anything else, and big enough for a finger; the page passes axe-core with no
serious or critical violation; a screenshot of it is kept under test-artifacts/.

axe-core is vendored for the tests only (tests/browser/vendor/, scripts/vendor-axe.sh) and
evaluated in the page through the DevTools protocol, which the page's
Content-Security-Policy does not govern: the app itself never serves it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tests.browser.conftest import ARTIFACTS

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1" / "axe.min.js"
SIZES = {"landscape": {"width": 1280, "height": 800}, "portrait": {"width": 800, "height": 1280}}
TOUCH = 56  # CSS px: the smallest key a croupier taps


def geometry(locator) -> dict:
    """Where the element is, and what the page has at its centre (elementFromPoint)."""
    return locator.evaluate(
        """el => {
          const r = el.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          const top = document.elementFromPoint(x, y);
          return {x: r.left, y: r.top, width: r.width, height: r.height,
                  vw: window.innerWidth, vh: window.innerHeight,
                  hit: !!top && (top === el || el.contains(top) || top.contains(el)),
                  at: top ? (top.outerHTML || "").slice(0, 120) : null};
        }"""
    )


def assert_in_view(locator, *, min_width: float = 0, min_height: float = 0, what: str = ""):
    """``locator`` is wholly inside the viewport, the top element at its centre is itself
    (or inside it), and it is at least ``min_width`` × ``min_height`` CSS px."""
    g = geometry(locator)
    name = what or str(locator)
    assert g["x"] >= -0.5 and g["y"] >= -0.5, f"{name} starts outside the viewport: {g}"
    assert g["x"] + g["width"] <= g["vw"] + 0.5, f"{name} overflows the viewport's width: {g}"
    assert g["y"] + g["height"] <= g["vh"] + 0.5, f"{name} is below the fold: {g}"
    assert g["hit"], f"{name} is covered by {g['at']}: {g}"
    assert g["width"] >= min_width - 0.01 and g["height"] >= min_height - 0.01, (
        f"{name} is {g['width']:.0f}×{g['height']:.0f}, smaller than {min_width}×{min_height}"
    )
    return g


def assert_no_page_scroll(page):
    """The page itself does not scroll (a region inside it may)."""
    sizes = page.evaluate(
        """() => ({sh: document.documentElement.scrollHeight, ch: window.innerHeight,
                   sw: document.documentElement.scrollWidth, cw: window.innerWidth})"""
    )
    assert sizes["sh"] <= sizes["ch"] + 1, f"the page scrolls vertically: {sizes}"
    assert sizes["sw"] <= sizes["cw"] + 1, f"the page scrolls sideways: {sizes}"


def assert_inside(inner, outer, what: str = ""):
    """``inner``'s box lies within ``outer``'s (e.g. a button within its box column)."""
    a, b = geometry(inner), geometry(outer)
    assert a["x"] >= b["x"] - 0.5 and a["x"] + a["width"] <= b["x"] + b["width"] + 0.5, (
        f"{what or inner} sticks out of its column: {a} in {b}"
    )


def axe_violations(page, *, impacts=("serious", "critical")) -> list[str]:
    """axe-core's violations of ``impacts`` on the page as it is now, one line each."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ["violations"]});
          return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " " +
                                            (n.failureSummary || "").slice(0, 160))}));
        }"""
    )
    return [
        f"{v['impact']} {v['id']}: {v['help']} — {json.dumps(v['nodes'], ensure_ascii=False)}"
        for v in result
        if v["impact"] in impacts
    ]


def assert_accessible(page, what: str = ""):
    found = axe_violations(page)
    assert not found, f"{what or page.url}:\n" + "\n".join(found)


def shoot(page, name: str) -> Path:
    """Save a screenshot of the viewport as test-artifacts/<name>.png, or in the contact
    sheet's folder when ``SCREENSHOTS_DIR`` names one (``make screenshots``)."""
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or ARTIFACTS)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (re.sub(r"[^\w.-]+", "_", name) + ".png")
    page.screenshot(path=str(path))
    return path


def look(page, name: str, *, accessible: bool = True) -> None:
    """A screen as it is now: the screenshot, then the accessibility check."""
    shoot(page, name)
    if accessible:
        assert_accessible(page, name)


_SEEN = """(els) => els.map(el => {
  const r = el.getBoundingClientRect();
  const name = (el.dataset.testid || el.className || el.tagName) + " «" +
               (el.textContent || "").trim().slice(0, 40) + "»";
  const problems = [];
  if (r.width < 1 || r.height < 1) problems.push("has no size");
  if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    problems.push("is not wholly inside the viewport " + JSON.stringify(r));
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const top = document.elementFromPoint(x, y);
  if (!top || !(top === el || el.contains(top)))
    problems.push("is covered at its centre by " + (top ? top.outerHTML.slice(0, 100) : "nothing"));
  for (let a = el.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === "visible" && s.overflowY === "visible") continue;
    const q = a.getBoundingClientRect();
    if (r.left < q.left - .5 || r.right > q.right + .5 ||
        r.top < q.top - .5 || r.bottom > q.bottom + .5)
      problems.push("is clipped by " + a.tagName + "." + a.className + " " +
                    JSON.stringify(q));
  }
  const own = getComputedStyle(el);
  if ((own.overflowX !== "visible" || own.overflowY !== "visible") &&
      (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
    problems.push("clips its own content");
  return problems.length ? name + ": " + problems.join("; ") : null;
}).filter(Boolean)"""


def assert_all_seen(page, selector: str, *, at_least: int = 1, what: str = "") -> int:
    """Every element matching ``selector`` is wholly in the viewport, is the element at its
    own centre (``elementFromPoint``: nothing covers it) and no ancestor clips it by an
    ``overflow``; returns how many were checked (at least ``at_least``)."""
    found = page.locator(selector).evaluate_all(_SEEN)
    count = page.locator(selector).count()
    assert count >= at_least, f"{what or selector}: {count} found, {at_least} expected"
    assert not found, f"{what or selector}:\n" + "\n".join(found[:15])
    return count


_CONTROLS = """(els) => els.filter(el => el.checkVisibility()).map(el => {
  const r = el.getBoundingClientRect();
  return (r.width < MIN - 0.01 || r.height < MIN - 0.01)
    ? (el.dataset.testid || el.name || el.tagName) + " «" + (el.textContent || el.value || "")
        .trim().slice(0, 30) + "» " + Math.round(r.width) + "×" + Math.round(r.height)
    : null;
}).filter(Boolean)"""
CONTROLS = "button, a, input:not([type=hidden]), select, textarea, summary"


def assert_controls_at_least(page, size: float = 48, *, within: str = "body") -> None:
    """Every visible control (button, link, field, select, disclosure) inside ``within`` is
    at least ``size`` × ``size`` CSS px: a finger's width."""
    small = page.locator(within).locator(CONTROLS).evaluate_all(_CONTROLS.replace("MIN", str(size)))
    assert not small, f"controls under {size}×{size} px:\n" + "\n".join(small)
