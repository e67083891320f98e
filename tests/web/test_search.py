"""Searching from the page: what the question is searched by, the balance, auto's class,
the request as curl, the URL, searches that overtake each other, more like this, and
what the page says about empty questions and weak matches. Each test runs at 1280 and
390 px (tests/web/conftest.py) with a clean console and network."""

from __future__ import annotations

import json
import subprocess

import httpx
from playwright.sync_api import expect

from browser import (
    SAMPLE,
    TIMEOUT_MS,
    close_controls,
    in_url,
    open_controls,
    open_diagnostics,
    open_page,
    row_ids,
    search_for,
    settled,
)


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


def test_any_typed_question_gets_vectors_where_the_server_embeds(browser, embedding_demo, width):
    watched = open_page(browser, embedding_demo.base_url, width=width)
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
    watched.screenshot(f"search-page-{width}.png")  # docs/search-page.png at 1280
    watched.context.close()
    assert watched.errors == []
    assert watched.outside_requests == []


def test_keyword_balance_changes_the_order(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    expect(page.get_by_test_id("summary")).to_contain_text("keywords + vectors")
    open_controls(page)
    balance = page.locator("#balance")
    balance.focus()
    page.keyboard.press("Home")  # 0: keywords only
    expect(page.locator("label[for=balance]")).to_contain_text("0.00")
    expect(page).to_have_url(in_url("balance=0"), timeout=TIMEOUT_MS)
    settled(page)
    keywords_first = row_ids(page)
    page.keyboard.press("End")  # 1: vectors only
    expect(page).to_have_url(in_url("balance=1"), timeout=TIMEOUT_MS)
    settled(page)
    close_controls(page)
    open_diagnostics(page)
    expect(page.get_by_test_id("weights")).to_contain_text("w_lex 0.00", timeout=TIMEOUT_MS)
    assert row_ids(page) != keywords_first


def test_the_auto_box_says_what_set_the_split(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/?profile=auto")
    search_for(page, SAMPLE)
    open_diagnostics(page)
    classification = page.get_by_test_id("classification")
    expect(classification).to_contain_text("auto read this as general")
    expect(classification).to_contain_text("Its evidence kept the default balance")
    open_controls(page)
    page.locator("#balance").focus()
    page.keyboard.press("End")
    expect(page).to_have_url(in_url("balance=1"), timeout=TIMEOUT_MS)
    close_controls(page)
    expect(classification).to_contain_text(
        "The balance slider sets the split: vectors get 100%", timeout=TIMEOUT_MS
    )
    search_for(page, "SELECT * FROM rag.chunks WHERE 1=1 OR ''='")
    expect(classification).to_contain_text("read this as code", timeout=TIMEOUT_MS)
    expect(classification).to_contain_text("an SQL statement")
    expect(classification).to_contain_text("The question has no vector")


def test_copy_as_curl_is_one_stop_and_returns_the_same_rows(browser, open_demo, width):
    watched = open_page(
        browser,
        open_demo.base_url,
        width=width,
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = watched.page
    page.goto(open_demo.base_url + "/?recency=exponential")
    search_for(page, SAMPLE)
    open_diagnostics(page)
    expect(page.get_by_test_id("curl")).to_contain_text("half_life_days")
    curl = page.locator(".curl")
    stops = curl.evaluate(
        "el => [...el.querySelectorAll('a, button, summary, input, [tabindex]')].length"
    )
    assert stops == 1
    curl.get_by_role("button", name="Copy as curl").click()
    command = page.evaluate("navigator.clipboard.readText()")
    assert command.startswith("curl ") and "half_life_days" in command
    ran = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True)
    assert [row["chunk_id"] for row in json.loads(ran.stdout)["rows"]] == row_ids(page)
    watched.context.close()
    assert watched.errors == []
    assert watched.outside_requests == []


def test_the_url_reloads_the_same_search(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    open_controls(page)
    page.locator("#w_rec").focus()
    page.keyboard.press("End")
    expect(page).to_have_url(in_url("w_rec=1"), timeout=TIMEOUT_MS)
    settled(page)
    close_controls(page)
    page.get_by_role("button", name="Next →").click()
    expect(page).to_have_url(in_url("offset=10"), timeout=TIMEOUT_MS)
    settled(page)
    expect(page.locator(".rank").first).to_have_text("11")
    shown = row_ids(page)
    page.goto(page.url)
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    assert row_ids(page) == shown
    expect(page.locator("#q")).to_have_value(SAMPLE)
    open_controls(page)
    expect(page.locator("label[for=w_rec]")).to_contain_text("1.00")


# Searches whose question has "slow" in it answer 1.5 s late, uncancelled.
SLOW_FETCH = """
const realFetch = window.fetch;
window.fetch = async (request, init) => {
  const body = request instanceof Request ? await request.clone().text() : String(init?.body || "");
  if (body.includes("slow")) {
    await new Promise((done) => setTimeout(done, 1500));
    return realFetch(request.url, { method: "POST", headers: request.headers, body });
  }
  return realFetch(request, init);
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
window.fetch = async (request, init) => {
  if (String(request.url || request).includes("/api/rag/examples")) {
    await new Promise((done) => setTimeout(done, 1500));
  }
  return realFetch(request, init);
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
    settled(page)
    assert source not in row_ids(page)
    assert len(row_ids(page)) == 10


def test_an_empty_question_says_what_to_do(watched, open_demo):
    page = watched.page
    searches: list[str] = []
    page.on("request", lambda r: r.url.endswith("/api/rag/search") and searches.append(r.url))
    page.goto(open_demo.base_url + "/")
    question = page.locator("#q")
    for empty in ("", "   "):
        question.fill(empty)
        question.press("Enter")
        expect(page.locator("#q-error")).to_have_text(
            "Type a question first, or pick a suggested one."
        )
        expect(question).to_have_attribute("aria-invalid", "true")
    question.press_sequentially("csv")
    expect(page.locator("#q-error")).to_have_count(0)
    assert searches == []


def test_a_nonsense_question_is_called_a_weak_match(browser, embedding_demo, width):
    watched = open_page(browser, embedding_demo.base_url, width=width)
    page = watched.page
    page.goto(embedding_demo.base_url + "/")
    search_for(page, "qwxz")
    weak = page.get_by_test_id("weak-match")
    expect(weak).to_be_visible()
    expect(weak).to_contain_text("No row answers the question well")
    expect(page.locator(".results.weak")).to_have_count(1)
    search_for(page, "csv dialect sniffer")
    expect(weak).to_have_count(0)
    expect(page.locator(".results.weak")).to_have_count(0)
    watched.context.close()
    assert watched.errors == []
    assert watched.outside_requests == []


def test_a_question_with_no_word_in_the_corpus_says_so(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    page.fill("#q", "qwxz")
    page.press("#q", "Enter")
    expect(page.get_by_test_id("no-rows")).to_have_text(
        "No chunk contains the question's words (typed questions are searched by keywords "
        "only here)."
    )


def test_rows_show_titles_and_clean_text(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, "JSONDecoder translations object dict")
    first = page.locator(".result").first
    expect(first.locator(".result-title")).to_have_text("json (Python 3.11)")
    expect(first.locator(".result-head")).to_contain_text("docs.python.org/3/library/json.html")
    table = page.locator('.result[data-chunk-id="python-json-chunk-3"] table')
    expect(table).to_have_count(1)
    assert table.locator("thead th").all_inner_texts() == ["JSON", "Python"]
    cells = table.locator("tbody tr").evaluate_all("rows => rows.map(r => r.cells.length)")
    assert len(cells) == 8 and set(cells) == {2}
    expect(table.locator("tbody tr").first).to_have_text("objectdict")
    search_for(page, "json dumps dict")
    texts = " ".join(page.locator(".result .chunk").all_inner_texts())
    for markup in ("``", ":mod:`", ":class:`", "`_", " ::"):
        assert markup not in texts, markup
    expect(page.locator(".result .chunk code").first).to_be_visible()
