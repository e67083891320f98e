"""Debian's Chromium driven by Playwright (no browser download): the launch options this
machine needs, a page that records its console errors and failed requests, and the
steps the search page's tests share."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, Route, expect, sync_playwright

CHROMIUM = os.environ.get("RAG_TEST_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium keeps calling home, which this
# machine's closed network refuses.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("RAG_SCREENSHOT_DIR", "build/screenshots"))


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class WatchedPage:
    """A page with everything that went wrong on it: console errors, uncaught
    exceptions, and requests that left this machine (blocked)."""

    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)
    outside_requests: list[str] = field(default_factory=list)

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / name
        self.page.screenshot(path=str(path))
        return path


def open_page(browser: Browser, base_url: str, width: int = 1280, **options: object) -> WatchedPage:
    context = browser.new_context(viewport={"width": width, "height": 900}, **options)  # type: ignore[arg-type]
    page = context.new_page()
    watched = WatchedPage(context, page)
    page.on("console", lambda m: m.type == "error" and watched.errors.append(m.text))
    page.on("pageerror", lambda e: watched.errors.append(str(e)))

    def local_only(route: Route) -> None:
        if route.request.url.startswith(base_url):
            route.continue_()
        else:
            watched.outside_requests.append(route.request.url)
            route.abort()

    page.route("**/*", local_only)
    return watched


# ---- steps on the search page -------------------------------------------------------------

TIMEOUT_MS = 15_000
# A suggested question of the demo: it carries a stored vector, so it is searched by
# keywords and vectors even where the server embeds nothing.
SAMPLE = "How do I parse JSON text into Python objects?"


def settled(page: Page) -> None:
    """The answer on screen is the last one asked for."""
    expect(page.locator(".answer.loading")).to_have_count(0, timeout=TIMEOUT_MS)


def search_for(page: Page, text: str) -> None:
    page.fill("#q", text)
    page.press("#q", "Enter")
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)


def row_ids(page: Page) -> list[str]:
    ids: list[str] = page.locator(".result").evaluate_all(
        "rows => rows.map(r => r.dataset.chunkId)"
    )
    return ids


def in_url(text: str) -> re.Pattern[str]:
    return re.compile(re.escape(text))


def open_controls(page: Page) -> None:
    """The filters and weights: beside the results on a wide screen, in a drawer on a
    phone (opened here)."""
    toggle = page.locator(".drawer-toggle")
    if toggle.is_visible():
        toggle.click()
    expect(page.locator("#controls")).to_be_visible()


def close_controls(page: Page) -> None:
    done = page.locator("#controls .drawer-head button")
    if done.is_visible():
        done.click()
        expect(page.locator("#controls")).to_be_hidden()


def open_diagnostics(page: Page) -> None:
    toggle = page.get_by_role("button", name="Why these results?")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(page.get_by_test_id("diagnostics")).to_be_visible()
