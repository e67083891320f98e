"""Collections and metadata filters inside the ranking: the top-k of one collection under
a metadata filter is exactly brute force's over that collection's passing chunks, with
either strategy; reciprocal rank fusion equals a hand computation of its formula."""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
import pytest

from helpers import (
    Chunk,
    assert_exact_topk,
    brute_force,
    call_topk,
    metadata_matches,
    random_corpus,
    register_spaces,
    store_corpus,
)

SPACES = {"prose": 16}
COLLECTIONS = ("tenant-a", "tenant-b")
LANGS = ["en", "fr", "de"]
TEAMS = ["search", "infra", "ml"]
LABELS = ["x", "y", "z"]
# Each operator of the language, alone and combined; the comments say what it catches.
METADATA_FILTERS: list[dict[str, Any]] = [
    {"lang": "en"},  # bare equality, the chunk's value over its document's
    {"year": {"$eq": 2021}},
    {"year": {"$gte": 2020, "$lt": 2024}},  # a range: two operators on one key
    {"year": {"$gt": 2022}},
    {"page": {"$lte": 2}},
    {"lang": {"$in": ["fr", "de"]}},
    {"lang": {"$nin": ["en"]}},  # also matches chunks without lang
    {"year": {"$ne": 2021}},
    {"draft": {"$exists": False}},
    {"reviewed": {"$exists": True}},
    {"draft": True},  # booleans
    {"labels": "x"},  # on an array: any element
    {"labels": {"$in": ["y", "z"]}},
    {"org.team": "search"},  # a dotted key into an object
    {"published": {"$gte": "2023-01-01", "$lt": "2024-07-01"}},  # ISO dates as text
    {"$or": [{"lang": "fr"}, {"year": {"$lt": 2019}}]},
    {"$and": [{"page": {"$gt": 3}}, {"org.team": {"$ne": "ml"}}]},
    {"$nor": [{"lang": "en"}, {"draft": True}]},
    {"$not": {"lang": "en"}},
    {"page": {"$lte": 4}, "lang": "en", "year": {"$gte": 2019}},  # several keys: all hold
    # a value of another type never equals, so its negations hold (as in MongoDB)
    {"year": {"$ne": "2021", "$gte": 2020}},
    {"lang": {"$nin": [1, 2]}, "page": {"$lte": 2}},
    {"$not": {"year": {"$gt": "2020"}}, "lang": "en"},
    {"$nor": [{"page": "2"}], "draft": True},
    {"year": {"$not": {"$gt": 2021}}},  # a key's operators negated (refused before)
    {"lang": {"$not": {"$in": ["en", "fr"]}}, "page": {"$lte": 3}},  # missing lang passes
    {"year": {"$not": {"$gte": 2019, "$lt": 2023}, "$ne": 2024}},
    {"lang": {"$in": []}},  # nothing passes
]


def _document_metadata(rng: np.random.Generator) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "year": int(rng.integers(2017, 2026)),
        "org": {"team": str(rng.choice(TEAMS))},
        "published": f"{int(rng.integers(2021, 2026))}-{int(rng.integers(1, 13)):02d}-15",
    }
    if rng.random() < 0.85:
        meta["lang"] = str(rng.choice(LANGS))
    return meta


def _chunk_metadata(rng: np.random.Generator) -> dict[str, Any]:
    meta: dict[str, Any] = {"page": int(rng.integers(0, 10))}
    if rng.random() < 0.2:
        meta["lang"] = str(rng.choice(LANGS))  # overrides the document's
    if rng.random() < 0.4:
        meta["draft"] = bool(rng.random() < 0.5)
    if rng.random() < 0.5:
        meta["labels"] = sorted(set(rng.choice(LABELS, size=int(rng.integers(1, 3))).tolist()))
    if rng.random() < 0.3:
        meta["reviewed"] = True
    return meta


def _with_metadata(
    rng: np.random.Generator, docs: list[dict[str, Any]], chunks: list[Chunk], collection: str
) -> None:
    """Give documents and chunks metadata (and the records the merged view): most of each,
    so that every pair is there (both, the document's alone, the chunk's alone, none)."""
    by_id = {chunk.chunk_id: chunk for chunk in chunks}
    for doc in docs:
        doc["collection"] = collection
        doc["metadata"] = _document_metadata(rng) if rng.random() < 0.8 else {}
        for body in doc["chunks"]:
            body["metadata"] = _chunk_metadata(rng) if rng.random() < 0.6 else {}
            by_id[body["chunk_id"]].meta = {**doc["metadata"], **body["metadata"]}


@pytest.fixture(scope="module")
def corpora(db_url: str) -> dict[str, list[Chunk]]:
    """Two collections holding the same document and chunk ids with different contents."""
    register_spaces(db_url, SPACES)
    with psycopg.connect(db_url, autocommit=True) as conn:
        for name in COLLECTIONS:
            conn.execute("SELECT api.create_collection(%s)", (name,))
    found = {}
    for seed, name in enumerate(COLLECTIONS):
        rng = np.random.default_rng(100 + seed)
        docs, chunks = random_corpus(rng, "mf", n_docs=40, chunks_per_doc=25, spaces=SPACES)
        _with_metadata(rng, docs, chunks, name)
        store_corpus(db_url, docs)
        found[name] = chunks
    return found


@pytest.fixture(scope="module")
def conn(db_url: str):
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


STRATEGIES = {
    "scan": {"strategy": "scan"},
    "threshold": {"strategy": "threshold", "ef_search": 1000},
}


def _query(rng: np.random.Generator) -> dict[str, np.ndarray]:
    v = rng.standard_normal(SPACES["prose"])
    return {"prose": (v / np.linalg.norm(v)).astype(np.float32)}


def test_the_filter_table_is_not_trivial(corpora):
    # every filter but the last keeps some chunks and drops others, so each is tested
    chunks = corpora["tenant-a"]
    for condition in METADATA_FILTERS[:-1]:
        kept = sum(metadata_matches(chunk.meta, condition) for chunk in chunks)
        assert 0 < kept < len(chunks), (condition, kept)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("condition", METADATA_FILTERS, ids=lambda c: str(c)[:60])
def test_metadata_filters_match_brute_force(corpora, conn, strategy, condition):
    rng = np.random.default_rng(len(str(condition)))
    for weights in [(0.8, 0.1, 0.1), (0.3, 0.3, 0.4)]:
        query = _query(rng)
        filters = {"filter": condition}
        result = call_topk(
            conn,
            query,
            {"prose": 1.0},
            weights,
            10,
            filters=filters,
            options=STRATEGIES[strategy],
            collection="tenant-a",
        )
        assert result["meta"]["strategy"] == strategy
        expected = brute_force(corpora["tenant-a"], query, {"prose": 1.0}, weights, filters)
        assert_exact_topk(result["rows"], expected, 10)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_each_collection_ranks_only_its_own_chunks(corpora, conn, strategy):
    rng = np.random.default_rng(8)
    for _ in range(3):
        query = _query(rng)
        for name, chunks in corpora.items():
            for filters in ({}, {"tags_any": ["beta"], "filter": {"page": {"$gte": 5}}}):
                result = call_topk(
                    conn,
                    query,
                    {"prose": 1.0},
                    (0.6, 0.2, 0.2),
                    20,
                    filters=filters,
                    options=STRATEGIES[strategy],
                    collection=name,
                )
                expected = brute_force(chunks, query, {"prose": 1.0}, (0.6, 0.2, 0.2), filters)
                assert_exact_topk(result["rows"], expected, 20)


def test_the_default_collection_sees_none_of_them(corpora, conn):
    result = call_topk(
        conn,
        _query(np.random.default_rng(1)),
        {"prose": 1.0},
        (0.5, 0.25, 0.25),
        10,
        options={"strategy": "scan"},
    )
    assert result["rows"] == []


def test_an_unknown_collection_is_refused(corpora, conn):
    with pytest.raises(psycopg.Error, match="no collection named"):
        call_topk(
            conn,
            _query(np.random.default_rng(1)),
            {"prose": 1.0},
            (1.0, 0.0, 0.0),
            5,
            collection="tenant-nope",
        )


def _rank_window(order: list[tuple[Any, str]], window: int) -> dict[str, int]:
    """1-based ranks of the first ``window`` chunks of (key, chunk_id) pairs sorted best first."""
    ranked = sorted(order)[:window]
    return {chunk_id: n for n, (_, chunk_id) in enumerate(ranked, start=1)}


def _rrf_by_hand(
    chunks: list[Chunk],
    query: dict[str, np.ndarray],
    weights: tuple[float, float, float],
    filters: dict[str, Any],
    rrf_k: int,
    window: int,
) -> dict[str, float]:
    """sum over components of w / (rrf_k + rank), each ranking cut at the window."""
    sem = brute_force(chunks, query, {"prose": 1.0}, (1.0, 0.0, 0.0), filters)
    passing = [chunk for chunk in chunks if chunk.chunk_id in sem]
    rankings = [
        (weights[0], _rank_window([(-sem[c.chunk_id], c.chunk_id) for c in passing], window)),
        (
            weights[1],
            _rank_window([(-c.created_at.timestamp(), c.chunk_id) for c in passing], window),
        ),
        (weights[2], _rank_window([(-c.signal, c.chunk_id) for c in passing], window)),
    ]
    fused: dict[str, float] = {}
    for weight, ranks in rankings:
        if weight == 0:
            continue
        for chunk_id, rank in ranks.items():
            fused[chunk_id] = fused.get(chunk_id, 0.0) + weight / (rrf_k + rank)
    return fused


@pytest.mark.parametrize(
    ("weights", "rrf_k", "window"),
    [((0.5, 0.3, 0.2), 60, 100), ((0.7, 0.0, 0.3), 10, 40), ((0.2, 0.4, 0.4), 1, 1000)],
)
def test_reciprocal_rank_fusion_equals_its_formula(corpora, conn, weights, rrf_k, window):
    rng = np.random.default_rng(rrf_k)
    filters = {"filter": {"page": {"$lt": 7}}}
    for _ in range(2):
        query = _query(rng)
        result = call_topk(
            conn,
            query,
            {"prose": 1.0},
            weights,
            15,
            filters=filters,
            options={"strategy": "scan", "fusion": "rrf", "rrf_k": rrf_k, "rrf_window": window},
            collection="tenant-b",
        )
        expected = _rrf_by_hand(corpora["tenant-b"], query, weights, filters, rrf_k, window)
        assert_exact_topk(result["rows"], expected, 15)
        assert result["meta"]["strategy"] == "rrf"


def test_fusion_over_the_index_agrees_with_the_scan_on_a_small_collection(corpora, conn):
    # at ef_search 1000 the HNSW walk of 1,000 vectors is exact, so both give the same rows
    query = _query(np.random.default_rng(4))
    options = {"fusion": "rrf", "ef_search": 1000}
    rows = {}
    for strategy in ("scan", "threshold"):
        result = call_topk(
            conn,
            query,
            {"prose": 1.0},
            (0.6, 0.2, 0.2),
            10,
            options={**options, "strategy": strategy},
            collection="tenant-a",
        )
        rows[strategy] = [(row["chunk_id"], round(row["score"], 12)) for row in result["rows"]]
    assert rows["scan"] == rows["threshold"] and len(rows["scan"]) == 10
