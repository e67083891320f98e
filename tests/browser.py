"""Debian's Chromium driven by Playwright (no browser download): the launch options this
machine needs, and a page that records its console errors and failed requests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, Route, sync_playwright

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
