"""The budget: with RAG_FACET_MAX_CHUNKS below the chunks that pass, counts are lower
bounds over the chunks read, said by exact: false; what the kept counts give (tags and
collections without a filter, the number of keyword matches) stays exact.

Against RAG_TEST_BASE_URL, that service must run with RAG_FACET_MAX_CHUNKS=25.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .corpus import Record, answered_counts, counted, expected_counts, store

BUDGET = 25
SERVICE_ENV = {"RAG_EMBEDDER": "none", "RAG_FACET_MAX_CHUNKS": str(BUDGET)}
BIG, SMALL, TINY = "budget-big", "budget-small", "budget-tiny"


@pytest.fixture(scope="module")
def corpus(client: httpx.Client) -> dict[str, list[Record]]:
    found = {}
    for seed, (name, docs) in enumerate(((BIG, 40), (SMALL, 24), (TINY, 3))):
        client.delete(f"/api/rag/collections/{name}")
        assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
        found[name] = store(client, name, seed=90 + seed, n_docs=docs)
    return found


def facets(client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/rag/facets", json={"collection": BIG, "limit": 100, **body})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    assert answer["max_chunks"] == BUDGET
    return answer


def assert_lower_bounds(facet: dict[str, Any], records: list[Record], field: str) -> None:
    expected = expected_counts(records, field)
    answered = answered_counts(facet)
    assert facet["exact"] is False
    assert all(n <= expected[value] for value, n in answered.items()), field
    assert facet["distinct"] == len(answered) <= len(expected)


def test_unfiltered_counts_past_the_budget_are_lower_bounds(client, corpus):
    records = corpus[BIG]
    assert len(records) > BUDGET
    answer = facets(client, {"fields": ["tags", "src", "metadata.lang", "collection"]})
    assert (answer["chunks"], answer["exact"]) == (len(records), False)
    tags = answer["facets"]["tags"]  # from the kept counts
    assert tags["exact"] is True and answered_counts(tags) == expected_counts(records, "tags")
    every = [r for name in corpus for r in corpus[name]]
    collections = answer["facets"]["collection"]
    assert collections["exact"] is True
    assert answered_counts(collections) == expected_counts(every, "collection")
    for field in ("src", "metadata.lang"):
        assert_lower_bounds(answer["facets"][field], records, field)
    langs = answer["facets"]["metadata.lang"]["values"]
    assert sum(v["chunks"] for v in langs) == BUDGET  # one language per chunk read


def test_filtered_counts_read_at_most_the_budget(client, corpus):
    filters = {"tags_any": ["alpha", "beta", "gamma"]}
    records = counted(corpus[BIG], filters)
    assert len(records) > BUDGET
    answer = facets(client, {**filters, "fields": ["tags", "doc_id"]})
    assert (answer["chunks"], answer["exact"]) == (BUDGET, False)
    for field in ("tags", "doc_id"):
        assert_lower_bounds(answer["facets"][field], records, field)
    assert sum(v["chunks"] for v in answer["facets"]["doc_id"]["values"]) == BUDGET


def test_collections_are_counted_smallest_first_within_one_budget(client, corpus):
    """The request's collection (the largest here) was counted by the request itself."""
    filters = {"tags_any": ["alpha", "beta", "gamma", "delta"]}
    every = counted([r for name in corpus for r in corpus[name]], filters)
    expected = expected_counts(every, "collection")
    assert expected[TINY] < BUDGET < expected[TINY] + expected[SMALL]
    facet = facets(client, {**filters, "fields": ["collection"]})["facets"]["collection"]
    answered = answered_counts(facet)
    assert facet["exact"] is False
    assert answered[TINY] == expected[TINY]  # counted first, whole
    assert answered[SMALL] == BUDGET - expected[TINY]  # the rest of the budget
    assert answered[BIG] == BUDGET  # the request's own collection: its count read first


def test_a_keyword_only_search_knows_its_number_of_matches(client, corpus):
    search = {"query": "zebra ledger orbit"}
    records = counted(corpus[BIG], {}, {"zebra", "ledger", "orbit"})
    assert len(records) > BUDGET
    answer = facets(client, {**search, "fields": ["src"]})
    assert answer["counted"] == "keyword_matches"
    assert (answer["chunks"], answer["exact"]) == (len(records), False)
    assert_lower_bounds(answer["facets"]["src"], records, "src")
