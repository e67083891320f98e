"""The search page's browser tests: services with the demo corpus (shared by every module
here), Debian's Chromium, and a watched page at each width the page is made for."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from app.api.pages import PAGE
from browser import WatchedPage, chromium, open_page
from conftest import PgServer, ServiceProcess, service_on_own_database

WIDTHS = [1280, 390]  # a laptop, a phone


@pytest.fixture(scope="package")
def open_demo(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    """`ragsearch serve --demo` as a user starts it: no keys (loopback only), no embedder."""
    with service_on_own_database(pg, {"RAG_DEMO": "true"}) as service:
        yield service


@pytest.fixture(scope="package")
def embedding_demo(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    """`make demo`: the demo corpus and the packaged all-MiniLM-L6-v2 for query text."""
    with service_on_own_database(pg, {"RAG_DEMO": "true", "RAG_EMBEDDER": "local"}) as service:
        yield service


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    assert (PAGE / "index.html").exists(), "the page is not built: run make web"
    with chromium() as launched:
        yield launched


@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def width(request: pytest.FixtureRequest) -> int:
    return int(request.param)


@pytest.fixture
def watched(browser: Browser, open_demo: ServiceProcess, width: int) -> Iterator[WatchedPage]:
    """The page on the open demo, whose console and network must stay clean."""
    page = open_page(browser, open_demo.base_url, width=width)
    yield page
    page.context.close()
    assert page.errors == []
    assert page.outside_requests == []
