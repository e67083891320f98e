"""The search page in a real browser (Debian's Chromium through Playwright) against a
running service with the demo corpus: what a user types, moves and clicks, and what the
page must then show. Screenshots land in build/screenshots (RAG_SCREENSHOT_DIR)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from app.api.pages import PAGE
from browser import WatchedPage, chromium, open_page
from conftest import READ_KEY, PgServer, ServiceProcess, service_on_own_database

SAMPLE = "How do I parse JSON text into Python objects?"
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def open_demo(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    """`ragsearch serve --demo` as a user starts it: no keys (loopback only), no embedder."""
    with service_on_own_database(pg, {"RAG_DEMO": "true"}) as service:
        yield service


@pytest.fixture(scope="module")
def embedding_demo(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    """`make demo`: the demo corpus and the packaged all-MiniLM-L6-v2 for query text."""
    with service_on_own_database(pg, {"RAG_DEMO": "true", "RAG_EMBEDDER": "local"}) as service:
        yield service


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert (PAGE / "index.html").exists(), "the page is not built: run make web"
    with chromium() as launched:
        yield launched


@pytest.fixture
def watched(browser: Browser, open_demo: ServiceProcess) -> Iterator[WatchedPage]:
    page = open_page(browser, open_demo.base_url)
    yield page
    page.context.close()
    assert page.errors == []
    assert page.outside_requests == []


def search_for(page: Page, text: str) -> None:
    page.fill("#q", text)
    page.press("#q", "Enter")
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator(".answer.loading")).to_have_count(0, timeout=TIMEOUT_MS)


def in_url(text: str) -> re.Pattern[str]:
    return re.compile(re.escape(text))


def row_ids(page: Page) -> list[str]:
    return page.locator(".result").evaluate_all("rows => rows.map(r => r.dataset.chunkId)")


def api_rows(base_url: str, body: dict) -> list[str]:
    answer = httpx.post(base_url + "/api/rag/search", json=body, timeout=30).json()
    return [row["chunk_id"] for row in answer["rows"]]


def test_typed_question_is_searched_by_keywords_and_marked(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    expect(page.get_by_test_id("mode-hint")).to_contain_text("keywords only")
    search_for(page, "csv dialect sniffer")
    assert row_ids(page) == api_rows(
        open_demo.base_url,
        {"query": "csv dialect sniffer", "k": 10, "explain": True, "collection": "default"},
    )
    expect(page.get_by_test_id("summary")).to_contain_text("keywords only")
    marked = {text.lower() for text in page.locator(".result mark").all_inner_texts()}
    assert {"csv", "dialect"} <= marked
    expect(page.locator(".result .bar span").first).to_be_visible()
    watched.screenshot("search-page-keywords-1280.png")


def test_any_typed_question_gets_vectors_where_the_server_embeds(browser, embedding_demo):
    watched = open_page(browser, embedding_demo.base_url)
    page = watched.page
    page.goto(embedding_demo.base_url + "/")
    expect(page.get_by_test_id("mode-hint")).to_contain_text("embedded on the server")
    expect(page.get_by_test_id("mode-hint")).to_contain_text("all-MiniLM-L6-v2")
    page.fill("#q", "turn a Python dict into a JSON string")
    page.press("#q", "Enter")
    expect(page.locator(".result").first).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("summary")).to_contain_text("keywords + vectors")
    semantic = page.locator(".result").first.locator('.bar span[data-component="sem"]')
    expect(semantic).to_be_visible()
    assert any(row.startswith("python-json-") for row in row_ids(page)[:3])
    page.wait_for_timeout(300)  # the bars' fade-in
    watched.screenshot("search-page-1280.png")  # docs/search-page.png, in the README
    watched.context.close()
    assert watched.errors == []


def test_keyword_balance_changes_the_order(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    expect(page.get_by_test_id("summary")).to_contain_text("keywords + vectors")
    balance = page.locator("#balance")
    balance.focus()
    weights = page.get_by_test_id("summary").locator("xpath=..")
    page.keyboard.press("Home")  # 0: keywords only
    expect(page.locator("label[for=balance]")).to_contain_text("0.00")
    expect(page).to_have_url(in_url("balance=0"), timeout=TIMEOUT_MS)
    expect(weights).to_contain_text("w_cos 0.00", timeout=TIMEOUT_MS)  # its answer is shown
    keywords_first = row_ids(page)
    page.keyboard.press("End")  # 1: vectors only
    expect(page).to_have_url(in_url("balance=1"), timeout=TIMEOUT_MS)
    expect(weights).to_contain_text("w_lex 0.00", timeout=TIMEOUT_MS)
    vectors_first = row_ids(page)
    assert vectors_first != keywords_first


def test_auto_profile_shows_the_class_and_why(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, "parse JSON text with `json.loads`")
    page.select_option("#profile", "auto")
    expect(page).to_have_url(in_url("profile=auto"), timeout=TIMEOUT_MS)
    classification = page.get_by_test_id("classification")
    expect(classification).to_contain_text("auto read this as lookup", timeout=TIMEOUT_MS)
    expect(classification).to_contain_text("of the relevance weight")


def test_why_not_says_what_kept_a_chunk_out(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    page.fill("#src_prefix", "https://docs.python.org/3/library/json")
    page.wait_for_function(  # the filtered answer is the one shown
        "() => { const ids = [...document.querySelectorAll('.result')]"
        ".map(r => r.dataset.chunkId);"
        " return ids.length > 0 && ids.every(id => id.startsWith('python-json-')); }",
        timeout=TIMEOUT_MS,
    )
    page.fill("#whynot-chunk", "python-csv-chunk-2")
    page.press("#whynot-chunk", "Enter")
    explanation = page.get_by_test_id("explanation")
    expect(explanation).to_contain_text("Filtered out by src_prefix", timeout=TIMEOUT_MS)
    first = page.locator(".result").first
    first.get_by_role("button", name="Explain rank").click()
    expect(explanation).to_contain_text("It is in the results, at rank 1.", timeout=TIMEOUT_MS)


def test_copy_as_curl_returns_the_same_rows(browser, open_demo):
    watched = open_page(
        browser, open_demo.base_url, permissions=["clipboard-read", "clipboard-write"]
    )
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    page.select_option("#recency", "exponential")
    expect(page).to_have_url(in_url("recency=exponential"), timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("curl")).to_contain_text("half_life_days", timeout=TIMEOUT_MS)
    expect(page.locator(".answer.loading")).to_have_count(0, timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Copy as curl").click()
    command = page.evaluate("navigator.clipboard.readText()")
    assert command.startswith("curl ") and "half_life_days" in command
    ran = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True)
    assert [row["chunk_id"] for row in json.loads(ran.stdout)["rows"]] == row_ids(page)
    watched.context.close()
    assert watched.errors == []


def test_the_url_reloads_the_same_search(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    page.locator("#w_rec").focus()
    page.keyboard.press("End")
    expect(page).to_have_url(in_url("w_rec=1"), timeout=TIMEOUT_MS)
    expect(page.locator(".answer.loading")).to_have_count(0, timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Next →").click()
    expect(page).to_have_url(in_url("offset=10"), timeout=TIMEOUT_MS)
    expect(page.locator(".answer.loading")).to_have_count(0, timeout=TIMEOUT_MS)
    expect(page.locator(".rank").first).to_have_text("11")
    shown = row_ids(page)
    page.goto(page.url)
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    assert row_ids(page) == shown
    expect(page.locator("#q")).to_have_value(SAMPLE)
    expect(page.locator("label[for=w_rec]")).to_contain_text("1.00")


SLOW_FETCH = """
const realFetch = window.fetch;
window.fetch = async (path, init = {}) => {
  if (String(init.body || "").includes("slow")) {
    await new Promise((done) => setTimeout(done, 1500));
    return realFetch(path, { ...init, signal: undefined });  // arrives late, uncancelled
  }
  return realFetch(path, init);
};
"""


def test_a_fast_second_search_is_never_overwritten_by_a_slow_first(watched, open_demo):
    page = watched.page
    page.add_init_script(SLOW_FETCH)
    page.goto(open_demo.base_url + "/")
    page.fill("#q", "slow logging handlers")
    page.press("#q", "Enter")
    search_for(page, "csv dialect sniffer")
    fast = row_ids(page)
    page.wait_for_timeout(2500)  # the slow answer has arrived by now
    assert row_ids(page) == fast
    expect(page.locator("#q")).to_have_value("csv dialect sniffer")
    assert "csv" in " ".join(page.locator(".result mark").all_inner_texts()).lower()


SLOW_START = """
const realFetch = window.fetch;
window.fetch = async (path, init) => {
  if (String(path).includes("/api/rag/examples")) {
    await new Promise((done) => setTimeout(done, 1500));
  }
  return realFetch(path, init);
};
"""


def test_a_search_asked_for_while_the_page_loads_runs_when_it_has(watched, open_demo):
    page = watched.page
    page.add_init_script(SLOW_START)
    page.goto(open_demo.base_url + "/")
    page.fill("#q", "csv dialect sniffer")
    page.press("#q", "Enter")  # before the server's details have arrived
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("summary")).to_contain_text("keywords only")


def test_more_like_this_leaves_the_chunk_out_and_says_what_it_is_like(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    source = row_ids(page)[0]
    page.locator(".result").first.get_by_role("button", name="More like this").click()
    expect(page.get_by_test_id("like-banner")).to_contain_text(source, timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("summary")).to_contain_text("vectors only", timeout=TIMEOUT_MS)
    assert source not in row_ids(page)
    assert len(row_ids(page)) == 10


def test_thumbs_up_moves_the_signal(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, "csv dialect sniffer")
    row = page.locator(".result").first
    chunk_id = row.get_attribute("data-chunk-id")

    def signal() -> float:
        title = page.locator(f'.result[data-chunk-id="{chunk_id}"] .scorebar').get_attribute(
            "title"
        )
        return float(title.split("signal: ")[1].split(" ")[0])

    before = signal()
    row.get_by_role("button", name=f"useful: {chunk_id}").click()
    expect(row.get_by_role("button", name=f"useful: {chunk_id}")).to_have_attribute(
        "aria-pressed", "true", timeout=TIMEOUT_MS
    )
    page.wait_for_function(
        f"""() => {{
          const bar = document.querySelector('.result[data-chunk-id="{chunk_id}"] .scorebar');
          return bar && !bar.title.includes("signal: {before:.3f} ");
        }}""",
        timeout=TIMEOUT_MS,
    )
    assert signal() > before


def test_a_key_typed_after_a_401_clears_the_error(browser, demo_service):
    watched = open_page(browser, demo_service.base_url)
    page = watched.page
    page.goto(demo_service.base_url + "/")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Unauthorized", timeout=TIMEOUT_MS)
    expect(alert).to_contain_text("enter an API key")
    page.fill("#api-key", READ_KEY)
    page.press("#api-key", "Enter")
    expect(alert).to_have_count(0, timeout=TIMEOUT_MS)
    search_for(page, SAMPLE)
    assert page.evaluate("sessionStorage.getItem('ragsearch.key')") == READ_KEY
    assert page.evaluate("Object.keys(localStorage)") == []
    watched.context.close()
    assert all("401" in error for error in watched.errors)  # the refused first requests


def test_at_390_px_nothing_overflows(browser, open_demo):
    watched = open_page(browser, open_demo.base_url, width=390)
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391"
        " && !e.closest('pre')).map(e => e.tagName + '.' + e.className)"
    )
    assert wide == []
    watched.screenshot("search-page-390.png")
    watched.context.close()
    assert watched.errors == []


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_api_docs_render_with_the_network_blocked(watched, open_demo, path):
    page = watched.page
    page.goto(open_demo.base_url + path)
    if path == "/docs":
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("ragsearch")
        expect(page.locator("button.authorize")).to_be_visible()
        expect(page.locator(".opblock").first).to_be_visible()
    else:
        expect(page.locator("h1").first).to_contain_text("ragsearch", timeout=TIMEOUT_MS)
        expect(page.get_by_text("/api/rag/search").first).to_be_attached()
    watched.screenshot(f"api-docs{path.replace('/', '-')}.png")
