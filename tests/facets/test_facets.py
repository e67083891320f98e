"""POST /api/rag/facets against a real service: counts equal to brute force over the
chunks a search ranks from (every filter, metadata keys, keyword-only queries), the
search's own count for a value clicked, collections only as a key may read them.

Against RAG_TEST_BASE_URL, that service must hold RAG_COLLECTION_KEYS with
RAG_TEST_SCOPED_READ_KEY limited to "facet-red" and no query embedder.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from typing import Any

import httpx
import numpy as np
import pytest

from conftest import READ_KEY
from helpers import AS_OF

from .corpus import (
    DIMS,
    Record,
    answered_counts,
    counted,
    expected_counts,
    store,
)

RED, BLUE = "facet-red", "facet-blue"
SCOPED_READ_KEY = os.environ.get("RAG_TEST_SCOPED_READ_KEY", "facet-red-read")
GRANTS = {SCOPED_READ_KEY: {"collections": [RED], "write": False}}
SERVICE_ENV = {"RAG_EMBEDDER": "none", "RAG_COLLECTION_KEYS": json.dumps(GRANTS)}
FIELDS = ["tags", "src", "doc_id", "metadata.lang", "metadata.year", "metadata.topics",
          "metadata.review.level", "metadata.review.done", "metadata.page"]  # fmt: skip
ALL = 100  # a limit above any field's number of values here


@pytest.fixture(scope="module")
def corpus(client: httpx.Client) -> dict[str, list[Record]]:
    found = {}
    for seed, name in enumerate((RED, BLUE)):
        client.delete(f"/api/rag/collections/{name}")
        assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
        found[name] = store(client, name, seed=70 + seed, n_docs=40 - 15 * seed)
    return found


def facets(client: httpx.Client, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    r = client.post("/api/rag/facets", json=body)
    assert r.status_code == status, r.text
    answer: dict[str, Any] = r.json()
    return answer


def vector(seed: int) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(DIMS)
    return (v / np.linalg.norm(v)).tolist()


FILTERS: list[dict[str, Any]] = [
    {},
    {"tags_any": ["alpha", "beta"]},
    {"tags_all": ["gamma"]},
    {"src_prefix": f"https://{RED}.example/a/"},
    {"doc_ids": [f"{RED}-doc-{d}" for d in range(0, 40, 3)]},
    {"filter": {"lang": "en"}},
    {"filter": {"year": {"$gte": 2021}, "topics": "c"}, "tags_any": ["delta", "eps"]},
    {"created_after": (AS_OF - timedelta(days=120)).isoformat()},
]


def _as_oracle(filters: dict[str, Any]) -> dict[str, Any]:
    """The filters as the brute-force ``passes`` reads them (timestamps as datetimes)."""
    from datetime import datetime

    found = dict(filters)
    for name in ("created_after", "created_before"):
        if name in found:
            found[name] = datetime.fromisoformat(found[name])
    return found


def _check(answer: dict[str, Any], records: list[Record], fields: list[str]) -> None:
    assert answer["exact"] is True
    assert answer["chunks"] == len(records)
    for field in fields:
        facet = answer["facets"][field]
        expected = expected_counts(records, field)
        assert answered_counts(facet) == expected, field
        assert facet["distinct"] == len(expected), field
        assert facet["exact"] is True
        chunks = [v["chunks"] for v in facet["values"]]
        assert chunks == sorted(chunks, reverse=True), field


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: ",".join(f) or "none")
def test_counts_equal_brute_force_under_every_filter(client, corpus, filters):
    body = {"collection": RED, "fields": [*FIELDS, "collection"], "limit": ALL, **filters}
    answer = facets(client, body)
    assert answer["counted"] == "filtered"
    records = counted(corpus[RED], _as_oracle(filters))
    _check(answer, records, FIELDS)
    every = counted(corpus[RED] + corpus[BLUE], _as_oracle(filters))
    assert answered_counts(answer["facets"]["collection"]) == expected_counts(every, "collection")


def test_a_query_with_a_vector_counts_every_chunk_that_passes(client, corpus):
    filters = {"tags_any": ["alpha"]}
    body = {"collection": RED, "query": "zebra", "embedding": vector(1), "fields": FIELDS,
            "limit": ALL, **filters}  # fmt: skip
    answer = facets(client, body)
    assert answer["counted"] == "filtered"
    _check(answer, counted(corpus[RED], filters), FIELDS)


@pytest.mark.parametrize(
    "search",
    [
        {"query": "zebra quartz"},  # no embedder: keywords only
        {"query": "orbit", "embedding": vector(2), "hybrid_vector_weight": 0},
        {"query": "ledger", "embedding": vector(3), "w_lex": 0.6, "w_cos": 0},
    ],
)
def test_a_keyword_only_search_counts_its_keyword_matches(client, corpus, search):
    filters = {"tags_any": ["beta", "gamma"]}
    body = {"collection": RED, "fields": [*FIELDS, "collection"], "limit": ALL,
            **filters, **search}  # fmt: skip
    answer = facets(client, body)
    assert answer["counted"] == "keyword_matches"
    words = set(search["query"].split())
    records = counted(corpus[RED], filters, words)
    _check(answer, records, FIELDS)
    every = counted(corpus[RED] + corpus[BLUE], filters, words)
    assert answered_counts(answer["facets"]["collection"]) == expected_counts(every, "collection")
    searched = client.post("/api/rag/search", json={"collection": RED, **filters, **search})
    assert searched.json()["query_metadata"]["keyword_matches"] == answer["chunks"]


def test_a_value_clicked_gives_a_search_of_as_many_chunks(client, corpus):
    """The count shown for a value is the number of chunks the search ranks from once the
    value is added to the field it refines (the search's own count, exact: true)."""
    base = {"collection": RED, "filter": {"year": {"$lte": 2022}}}
    answer = facets(client, {**base, "fields": ["tags", "doc_id", "metadata.lang", "collection"]})
    refined = {
        "tags": lambda v: {"tags_any": [v]},
        "doc_id": lambda v: {"doc_ids": [v]},
        "metadata.lang": lambda v: {"filter": {"$and": [base["filter"], {"lang": v}]}},
        "collection": lambda v: {"collection": v},
    }
    for field, narrowed in refined.items():
        facet = answer["facets"][field]
        assert facet["values"], field
        for value in facet["values"][:3]:
            search = {**base, **narrowed(value["value"]), "embedding": vector(4), "exact": True}
            r = client.post("/api/rag/search", json=search)
            assert r.status_code == 200, r.text
            assert r.json()["query_metadata"]["candidates_scanned"] == value["chunks"], field


def test_limit_keeps_the_most_frequent_values(client, corpus):
    whole = facets(client, {"collection": RED, "fields": ["doc_id", "metadata.year"], "limit": ALL})
    top = facets(client, {"collection": RED, "fields": ["doc_id", "metadata.year"], "limit": 3})
    for field in ("doc_id", "metadata.year"):
        values = top["facets"][field]["values"]
        assert len(values) == 3
        assert values == whole["facets"][field]["values"][:3]
        assert top["facets"][field]["distinct"] == whole["facets"][field]["distinct"]


def test_each_facet_names_the_field_a_value_refines(client, corpus):
    answer = facets(client, {"collection": RED, "fields": ["tags", "src", "doc_id", "collection",
                                                           "metadata.lang"]})  # fmt: skip
    refines = {name: facet["refines"] for name, facet in answer["facets"].items()}
    assert refines == {"tags": "tags_any", "src": "src_prefix", "doc_id": "doc_ids",
                       "collection": "collection", "metadata.lang": "filter"}  # fmt: skip
    assert list(answer["facets"]) == ["tags", "src", "doc_id", "collection", "metadata.lang"]


def test_a_scoped_key_counts_only_its_collections(service, corpus):
    scoped = httpx.Client(base_url=service.base_url,
                          headers={"Authorization": f"Bearer {SCOPED_READ_KEY}"})  # fmt: skip
    answer = scoped.post("/api/rag/facets", json={"collection": RED, "fields": ["collection"]})
    assert answer.status_code == 200, answer.text
    assert [v["value"] for v in answer.json()["facets"]["collection"]["values"]] == [RED]
    refused = scoped.post("/api/rag/facets", json={"collection": BLUE, "fields": ["tags"]})
    assert refused.status_code == 403
    assert "facet-blue" in refused.json()["error"]
    reader = httpx.Client(
        base_url=service.base_url, headers={"Authorization": f"Bearer {READ_KEY}"}
    )
    every = reader.post("/api/rag/facets", json={"collection": RED, "fields": ["collection"]})
    assert {RED, BLUE} <= {v["value"] for v in every.json()["facets"]["collection"]["values"]}


def test_the_default_fields_and_the_unknown_collection(client, corpus):
    answer = facets(client, {"collection": BLUE})
    assert list(answer["facets"]) == ["tags", "src", "collection"]
    assert len(answer["facets"]["tags"]["values"]) <= 10
    missing = facets(client, {"collection": "no-such-collection"}, status=404)
    assert "no-such-collection" in missing["error"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"filter": {"year": {"$near": 1}}}, 'unknown operator "$near"'),
        ({"fields": ["metadata.a..b"]}, "fields[0] must be tags, src, doc_id, collection"),
        ({"fields": ["tags", "metadata.a\u0000b"]}, "fields[1] must not contain NUL"),
        ({"limit": 1000}, "limit must be an integer in 1..100"),
        ({"embedding": [0.1, 0.2]}, "embedding: expected 384 numbers, got 2"),
        ({"profile": "no_such_profile"}, "invalid_profile"),
        ({"query": "x", "profile": "auto", "hybrid_vector_weight": 2}, "hybrid_vector_weight"),
        ({"query": "   "}, "query must be a non-empty string"),  # it counted every chunk
    ],
)
def test_bad_bodies_are_400s_naming_the_field(client, corpus, body, says):
    answer = facets(client, {"collection": RED, **body}, status=400)
    assert says in answer["error"], answer
