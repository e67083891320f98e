"""The rows and what a reader does with them: paging to the end, the rows the per-source
cap held back, why-not under its row and never for another search, Useful as a toggle,
and reciprocal rank fusion's bars and ranks. At 1280 and 390 px, console and network
clean."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from browser import (
    SAMPLE,
    TIMEOUT_MS,
    close_controls,
    open_controls,
    open_diagnostics,
    row_ids,
    search_for,
    settled,
)

CAPPED = "/?q=json&tags=json&k=3"  # six json chunks match, all from one source (cap 3)


def test_paging_stops_at_the_last_row(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + CAPPED)
    expect(page.locator(".result")).to_have_count(3, timeout=TIMEOUT_MS)
    settled(page)
    expect(page.get_by_role("button", name="Next →")).to_have_count(0)
    page.goto(open_demo.base_url + "/?q=compress&k=4")  # eight rows: two full pages
    expect(page.locator(".result")).to_have_count(4, timeout=TIMEOUT_MS)
    settled(page)
    next_page = page.get_by_role("button", name="Next →")
    next_page.click()
    expect(page.locator(".rank").first).to_have_text("5", timeout=TIMEOUT_MS)
    settled(page)
    expect(page.locator(".result")).to_have_count(4)
    expect(next_page).to_be_disabled()
    expect(page.locator(".pager")).to_contain_text("rows 5–8")
    page.goto(open_demo.base_url + "/?q=json&tags=json&k=3&offset=3")
    expect(page.get_by_test_id("no-rows")).to_have_text(
        "No rows past row 3. back to the first page", timeout=TIMEOUT_MS
    )
    expect(page.locator(".pager")).to_have_count(0)
    page.get_by_role("button", name="back to the first page").click()
    expect(page.locator(".result")).to_have_count(3, timeout=TIMEOUT_MS)


def test_rows_the_source_cap_held_back_can_be_shown(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + CAPPED)
    expect(page.locator(".result")).to_have_count(3, timeout=TIMEOUT_MS)
    shown = row_ids(page)
    held = page.get_by_test_id("held-back")
    expect(held).to_contain_text("3 more from this source — show", timeout=TIMEOUT_MS)
    held.get_by_role("button").click()
    expect(held.locator(".held-row")).to_have_count(3)
    uncapped = httpx.post(
        open_demo.base_url + "/api/rag/search",
        json={"query": "json", "tags_any": ["json"], "k": 10, "max_per_source": 0},
    ).json()["rows"]
    ids = held.locator(".held-row").evaluate_all("rows => rows.map(r => r.dataset.chunkId)")
    assert ids == [row["chunk_id"] for row in uncapped if row["chunk_id"] not in shown]
    expect(held.locator(".result-title").first).to_have_text("json (Python 3.11)")


def test_explain_rank_answers_under_its_row(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    second = page.locator(".result").nth(1)
    second.get_by_role("button", name="Explain rank").click()
    expect(second.get_by_test_id("explanation")).to_contain_text(
        "It is in the results, at rank 2.", timeout=TIMEOUT_MS
    )
    second.get_by_role("button", name="Explain rank").click()
    expect(second.get_by_test_id("explanation")).to_have_count(0)


def test_explain_rank_on_a_later_page_says_the_rank_shown(watched, open_demo):
    # explain now explains the page the search returned: its position is the page's
    page = watched.page
    page.goto(open_demo.base_url + "/?q=compress&k=4&offset=4")
    expect(page.locator(".rank").first).to_have_text("5", timeout=TIMEOUT_MS)
    settled(page)
    second = page.locator(".result").nth(1)
    second.get_by_role("button", name="Explain rank").click()
    expect(second.get_by_test_id("explanation")).to_contain_text(
        "It is in the results, at rank 6.", timeout=TIMEOUT_MS
    )


def test_why_not_answers_only_for_the_search_on_screen(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    first = page.locator(".result").first
    liked = row_ids(page)[0]
    first.get_by_role("button", name="Explain rank").click()
    expect(first.get_by_test_id("explanation")).to_contain_text("at rank 1", timeout=TIMEOUT_MS)
    first.get_by_role("button", name="More like this").click()
    expect(page.get_by_test_id("like-banner")).to_contain_text(liked, timeout=TIMEOUT_MS)
    settled(page)
    expect(page.get_by_test_id("explanation")).to_have_count(0)
    open_diagnostics(page)
    page.fill("#whynot-chunk", liked)
    page.press("#whynot-chunk", "Enter")
    box = page.locator(".whynot").get_by_test_id("explanation")
    expect(box).to_contain_text("this is the chunk the search is like", timeout=TIMEOUT_MS)
    expect(page.locator("main")).not_to_contain_text("at rank 1")


def test_the_why_not_box_follows_the_search(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    open_controls(page)
    page.fill("#src_prefix", "https://docs.python.org/3/library/json")
    close_controls(page)
    page.wait_for_function(  # the filtered answer is the one shown
        "() => { const ids = [...document.querySelectorAll('.result')]"
        ".map(r => r.dataset.chunkId);"
        " return ids.length > 0 && ids.every(id => id.startsWith('python-json-')); }",
        timeout=TIMEOUT_MS,
    )
    settled(page)
    open_diagnostics(page)
    page.fill("#whynot-chunk", "python-csv-chunk-2")
    page.press("#whynot-chunk", "Enter")
    box = page.locator(".whynot").get_by_test_id("explanation")
    expect(box).to_contain_text("Filtered out by src_prefix", timeout=TIMEOUT_MS)
    open_controls(page)
    page.fill("#src_prefix", "")
    close_controls(page)
    expect(box).not_to_contain_text("Filtered out", timeout=TIMEOUT_MS)
    expect(box).to_contain_text("python-csv-chunk-2: Outscored")


def volume(base_url: str, chunk_id: str) -> float:
    document = httpx.get(f"{base_url}/api/rag/documents/{chunk_id.rsplit('-chunk-', 1)[0]}")
    chunk = next(c for c in document.json()["chunks"] if c["chunk_id"] == chunk_id)
    return float(chunk["volume"])


def test_useful_is_a_toggle_that_takes_its_vote_back(watched, open_demo, width):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    question = "gzip compress" if width == 1280 else "hashlib digest"  # a row per width
    search_for(page, question)
    chunk_id = row_ids(page)[0]
    before = volume(open_demo.base_url, chunk_id)
    useful = page.get_by_role("button", name=f"useful: {chunk_id}")
    useful.click()
    expect(useful).to_have_attribute("aria-pressed", "true", timeout=TIMEOUT_MS)
    settled(page)
    assert volume(open_demo.base_url, chunk_id) == before + 1
    page.reload()  # the mark is kept for the tab
    expect(useful).to_have_attribute("aria-pressed", "true", timeout=TIMEOUT_MS)
    useful.click()
    expect(useful).to_have_attribute("aria-pressed", "false", timeout=TIMEOUT_MS)
    settled(page)
    assert volume(open_demo.base_url, chunk_id) == before


def test_rrf_draws_its_bars_from_the_ranks_and_shows_them(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/?q=json+decoder&fusion=rrf")
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    first = page.locator(".result").first
    expect(first.get_by_test_id("ranks")).to_contain_text("keywords 1")
    score = float(first.locator(".score").inner_text())
    widths = first.locator(".bar span").evaluate_all(
        "spans => spans.map(s => parseFloat(s.style.width))"
    )
    best = 1 / (60 + 1)  # rank 1 in every ranking, the weights summing to 1
    assert abs(sum(widths) / 100 - score / best) < 0.01
    assert page.get_by_test_id("ranks").count() == page.locator(".result").count()


def test_stored_text_with_a_direction_override_stays_in_its_place(watched, open_demo):
    # a title's U+202E turned the rest of the line around ("today" read "yadot"), and a
    # javascript: source read as a path once its scheme was cut off
    base, collection = open_demo.base_url, "bidi"
    httpx.delete(f"{base}/api/rag/collections/{collection}")
    assert httpx.post(f"{base}/api/rag/collections", json={"name": collection}).status_code == 201
    doc = {"collection": collection, "doc_id": "rlo", "title": "report\u202efdp.exe",
           "src": "javascript:window.__pwned=1", "chunks": [{"chunk": "zebra quarterly"}]}  # fmt: skip
    assert httpx.post(f"{base}/api/rag/documents", json=doc).status_code == 200
    try:
        page = watched.page
        page.goto(f"{base}/?q=zebra&collection={collection}")
        head = page.locator(".result-head").first
        expect(head.locator("bdi")).to_have_count(3, timeout=TIMEOUT_MS)  # title, src, id
        expect(head.locator("bdi").nth(1)).to_have_text("javascript:window.__pwned=1")
        expect(head.locator("a")).to_have_count(0)
        assert page.evaluate("window.__pwned") is None
    finally:
        httpx.delete(f"{base}/api/rag/collections/{collection}")
