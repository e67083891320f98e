"""Moving around: Back and Forward between searches, the keyboard, the layout at each
width (diagnostics behind a toggle, the controls in a drawer on a phone), and the API
documentation with its way back. At 1280 and 390 px, console and network clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser import SAMPLE, TIMEOUT_MS, open_controls, row_ids, search_for, settled


def test_back_and_forward_move_between_searches(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, "csv dialect")
    first = row_ids(page)
    search_for(page, "gzip compress")
    second = row_ids(page)
    page.go_back()
    expect(page.locator("#q")).to_have_value("csv dialect")
    settled(page)
    expect(page.locator(".result").first).to_have_attribute("data-chunk-id", first[0])
    assert row_ids(page) == first
    page.go_forward()
    expect(page.locator("#q")).to_have_value("gzip compress")
    settled(page)
    assert row_ids(page) == second
    page.go_back()
    page.go_back()  # before the first search: the empty page, still this app
    expect(page.locator("#q")).to_have_value("")
    expect(page.locator(".result")).to_have_count(0)
    assert page.url.rstrip("/") == open_demo.base_url


def test_the_keyboard_reaches_the_question_and_the_results(watched, open_demo):
    page = watched.page
    watched.context.route(
        "https://docs.python.org/**",
        lambda route: route.fulfill(body="<title>opened</title>", content_type="text/html"),
    )
    page.goto(open_demo.base_url + "/")
    expect(page.get_by_test_id("mode-hint")).to_contain_text("keywords")  # the page is up
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type("csv dialect")
    page.keyboard.press("Enter")
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    page.evaluate("document.activeElement.blur()")
    titles = page.locator(".result .result-title")
    page.keyboard.press("ArrowDown")
    expect(titles.nth(0)).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(titles.nth(1)).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(titles.nth(0)).to_be_focused()
    href = titles.nth(0).get_attribute("href")
    with watched.context.expect_page() as opened:
        page.keyboard.press("Enter")
    assert opened.value.url == href
    opened.value.close()
    page.bring_to_front()
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()


def test_the_first_screen_holds_the_question_and_the_results(watched, open_demo, width):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    question = page.locator("#q")
    placeholder_fits = question.evaluate(
        """input => {
          const style = getComputedStyle(input);
          const context = document.createElement("canvas").getContext("2d");
          context.font = `${style.fontSize} ${style.fontFamily}`;
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return context.measureText(input.placeholder).width <= room;
        }"""
    )
    assert placeholder_fits
    search_for(page, SAMPLE)
    first = page.locator(".result").first.bounding_box()
    assert first and first["y"] < 450  # the first row starts in the first half screen
    diagnostics = page.get_by_test_id("diagnostics")
    expect(diagnostics).to_have_count(0)
    page.get_by_role("button", name="Why these results?").click()
    expect(diagnostics).to_be_visible()
    expect(diagnostics.get_by_role("button", name="Copy as curl")).to_be_visible()
    page.get_by_role("button", name="Why these results?").click()
    expect(diagnostics).to_have_count(0)
    controls = page.locator("#controls")
    if width < 820:
        expect(controls).to_be_hidden()
        open_controls(page)
        expect(page.locator("#k")).to_be_in_viewport()
        page.keyboard.press("Escape")
        expect(controls).to_be_hidden()
    else:
        expect(controls).to_be_visible()
        expect(page.get_by_role("button", name="Filters & weights")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(
        f"[...document.querySelectorAll('body *')].filter(e => "
        f"e.getBoundingClientRect().right > {width + 1} && !e.closest('pre, .table-scroll'))"
        ".map(e => e.tagName + '.' + e.className)"
    )
    assert wide == []
    watched.screenshot(f"search-page-first-screen-{width}.png")


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_api_docs_render_offline_and_lead_back_to_the_page(watched, open_demo, path):
    page = watched.page
    page.goto(open_demo.base_url + path)
    if path == "/docs":
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("ragsearch")
        expect(page.locator("button.authorize")).to_be_visible()
        expect(page.locator(".opblock").first).to_be_visible()
    else:
        expect(page.locator("h1").first).to_contain_text("ragsearch", timeout=TIMEOUT_MS)
        expect(page.get_by_text("/api/rag/search").first).to_be_attached()
    page.get_by_role("link", name="← ragsearch search page").click()
    expect(page.locator("#q")).to_be_visible()
    assert page.url.rstrip("/") == open_demo.base_url
