"""Facet counts on the page: tags, sources and collections of the chunks that hold a word
of the question and pass the filters on screen (with vectors too: a search with vectors
ranks every chunk), every chunk that passes when none holds one, each count the number of
chunks counted once that value is clicked, a click that refines the search (and a second
that takes it back), and collections the same search finds elsewhere. At 1280 and 390 px
(the counts folded in the drawer on a phone), console and network clean."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from browser import SAMPLE, TIMEOUT_MS, in_url, open_controls, open_page, search_for, settled
from conftest import ServiceProcess

OTHER = "facet-page"  # a second collection, holding two json documents


def facet_answer(base_url: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(base_url + "/api/rag/facets", json={"limit": 8, **body}, timeout=30)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def counts_ready(page: Page) -> Locator:
    """The facet panel, unfolded, once it shows the counts for the answer on screen."""
    settled(page)
    if not page.locator("#controls").is_visible():
        open_controls(page)
    panel = page.get_by_test_id("facets")
    expect(panel).to_have_attribute("aria-busy", "false", timeout=TIMEOUT_MS)
    if not panel.evaluate("details => details.open"):
        panel.locator("summary").click()
    return panel


def shown(panel: Locator, noun: str) -> dict[str, int]:
    """value -> count, as the buttons of one group say them."""
    labels = panel.get_by_test_id(f"facet-{noun}").locator("button.facet").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('aria-label'))"
    )
    found = {}
    for label in labels:
        value, count = re.fullmatch(rf"{noun} (.+): (\d+) chunks?", label).groups()
        found[value] = int(count)
    return found


def as_counts(facet: dict[str, Any]) -> dict[str, int]:
    return {str(v["value"]): v["chunks"] for v in facet["values"]}


@pytest.fixture(scope="module")
def other_collection(open_demo: ServiceProcess) -> Iterator[str]:
    base = open_demo.base_url
    httpx.delete(f"{base}/api/rag/collections/{OTHER}")
    assert httpx.post(f"{base}/api/rag/collections", json={"name": OTHER}).status_code == 201
    for n in range(2):
        doc = {"collection": OTHER, "doc_id": f"team-json-{n}", "src": f"https://team.example/{n}",
               "title": f"Team notes {n}", "chunks": [{"chunk": f"json notes number {n}",
                                                      "tags": ["json", "team"]}]}  # fmt: skip
        assert httpx.post(f"{base}/api/rag/documents", json=doc).status_code == 200
    yield OTHER
    httpx.delete(f"{base}/api/rag/collections/{OTHER}")


def test_counts_for_the_question_and_a_tag_clicked(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/?q=json")
    settled(page)
    open_controls(page)
    folded = page.get_by_test_id("facets")
    # on a phone the counts open folded, the drawer's other controls on its first screen
    expect(folded).to_have_js_property("open", page.viewport_size["width"] > 820)
    expected = facet_answer(open_demo.base_url, {"query": "json", "collection": "default"})
    expect(folded.get_by_test_id("facet-total")).to_have_text(f" · {expected['chunks']} chunks")
    panel = counts_ready(page)
    assert expected["counted"] == "keyword_matches"  # no embedder: typed words alone
    expect(page.get_by_test_id("facet-basis")).to_contain_text(
        f"{expected['chunks']} chunks hold a word of the question and pass the filters"
    )
    tags = shown(panel, "tag")
    assert tags == as_counts(expected["facets"]["tags"])
    assert shown(panel, "source") == as_counts(expected["facets"]["src"])
    tag, count = list(tags.items())[-1]  # the rarest: fewer chunks than the question has
    assert count < expected["chunks"]
    watched.screenshot(f"facets-{page.viewport_size['width']}.png")
    panel.get_by_role("button", name=f"tag {tag}: ").click()
    expect(page).to_have_url(in_url(f"tags={tag}"), timeout=TIMEOUT_MS)
    panel = counts_ready(page)
    # the count on the button was the number of chunks the narrowed search holds
    expect(page.get_by_test_id("facet-basis")).to_contain_text(f"{count} chunk")
    pressed = panel.get_by_role("button", name=f"tag {tag}: ")
    expect(pressed).to_have_attribute("aria-pressed", "true")
    assert shown(panel, "tag") == tags  # tags are counted as if none were chosen
    pressed.click()
    expect(page).not_to_have_url(in_url("tags="), timeout=TIMEOUT_MS)
    expect(counts_ready(page).get_by_role("button", name=f"tag {tag}: ")).to_have_attribute(
        "aria-pressed", "false"
    )


def test_a_source_clicked_narrows_the_search_and_again_widens_it(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    panel = counts_ready(page)
    sources = shown(panel, "source")
    src, count = next(iter(sources.items()))
    panel.get_by_role("button", name=f"source {src}: ").click()
    expect(page).to_have_url(in_url("src_prefix="), timeout=TIMEOUT_MS)
    panel = counts_ready(page)
    expect(page.locator("#src_prefix")).to_have_value(src)
    expect(page.get_by_test_id("facet-basis")).to_contain_text(f"{count} chunk")
    assert shown(panel, "source")[src] == count
    panel.get_by_role("button", name=f"source {src}: ").click()
    expect(page).not_to_have_url(in_url("src_prefix="), timeout=TIMEOUT_MS)
    expect(page.locator("#src_prefix")).to_have_value("")


def test_collections_count_the_same_search_and_a_click_moves_it(
    watched, open_demo, other_collection
):
    page = watched.page
    page.goto(open_demo.base_url + "/?q=json&tags=json")
    panel = counts_ready(page)
    expected = facet_answer(
        open_demo.base_url, {"query": "json", "tags_any": ["json"], "fields": ["collection"]}
    )
    assert shown(panel, "collection") == as_counts(expected["facets"]["collection"])
    assert shown(panel, "collection")[other_collection] == 2
    current = panel.get_by_role("button", name="collection default: ")
    expect(current).to_have_attribute("aria-pressed", "true")
    watched.screenshot(f"facets-collections-{page.viewport_size['width']}.png")
    panel.get_by_role("button", name=f"collection {other_collection}: ").click()
    expect(page).to_have_url(in_url(f"collection={other_collection}"), timeout=TIMEOUT_MS)
    settled(page)
    expect(page.locator(".result")).to_have_count(2, timeout=TIMEOUT_MS)
    expect(page.locator(".result-title").first).to_contain_text("Team notes")


def test_with_vectors_the_counts_are_of_the_chunks_holding_a_word(browser, embedding_demo, width):
    """A search with vectors ranks every chunk: the counts say which hold the question's
    words, as a keyword-only search of the same question would count them."""
    watched = open_page(browser, embedding_demo.base_url, width=width)
    page = watched.page
    question = "JSON decoder error"
    page.goto(embedding_demo.base_url + "/")
    page.fill("#q", question)
    page.press("#q", "Enter")
    expect(page.locator(".result").first).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("summary")).to_contain_text("keywords + vectors")
    panel = counts_ready(page)
    body = {"query": question, "hybrid_vector_weight": 0, "collection": "default"}
    expected = facet_answer(embedding_demo.base_url, body)
    assert expected["counted"] == "keyword_matches"
    every = facet_answer(embedding_demo.base_url, {"collection": "default"})
    assert expected["chunks"] < every["chunks"]
    expect(page.get_by_test_id("facet-basis")).to_contain_text(
        f"{expected['chunks']} chunks hold a word of the question"
    )
    assert shown(panel, "source") == as_counts(expected["facets"]["src"])
    watched.screenshot(f"facets-vectors-{width}.png")
    watched.context.close()
    assert watched.errors == []
    assert watched.outside_requests == []


def test_when_no_chunk_holds_a_word_every_chunk_that_passes_counts(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/?q=qwxz&src_prefix=https://docs.python.org/3/library/j")
    expect(page.get_by_test_id("no-rows")).to_be_visible(timeout=TIMEOUT_MS)
    panel = counts_ready(page)
    body = {"src_prefix": "https://docs.python.org/3/library/j", "collection": "default"}
    expected = facet_answer(open_demo.base_url, body)
    expect(page.get_by_test_id("facet-basis")).to_have_text(
        f"No chunk holds a word of the question; {expected['chunks']} chunks pass the filters, "
        "and the counts are over all of them, not only this page."
    )
    assert shown(panel, "source") == as_counts(expected["facets"]["src"])
