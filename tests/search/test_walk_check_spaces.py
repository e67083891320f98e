"""With several weighted dense spaces, each space's walk is checked against the chunks that
walk read, not against what any walk read: a sampled chunk one space's graph returned but
another's passed over still proves the second walk wrong. Here one sampled chunk is kept
out of the HNSW graph of one space only (that index not maintained while it is stored)."""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
import pytest

from helpers import call_topk, random_corpus, register_spaces, store_corpus

WALKED, PASSED_OVER = "walked", "passed_over"
SPACES = {WALKED: 16, PASSED_OVER: 16}
HIDDEN = 200_000  # a sampled key (api.sample_predicate: 1 in 1,000)


@pytest.fixture(scope="module")
def hidden(db_url: str) -> dict[str, np.ndarray]:
    """1,000 chunks in both spaces, then one sampled chunk that only WALKED's graph holds;
    returns that chunk's vectors."""
    rng = np.random.default_rng(23)
    register_spaces(db_url, SPACES)
    docs, _ = random_corpus(rng, "ws", n_docs=20, chunks_per_doc=50, spaces=SPACES, missing=0)
    store_corpus(db_url, docs)
    vectors = {space: _unit(rng, dims) for space, dims in SPACES.items()}
    _index_maintained(db_url, PASSED_OVER, False)
    try:
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute("SELECT setval(pg_get_serial_sequence('rag.chunks', 'id'), %s)",
                         (HIDDEN - 1,))  # fmt: skip
        store_corpus(db_url, [{"doc_id": "hidden", "chunks": [
            {"chunk_id": "hidden-0", "chunk": "out of one graph",
             "embeddings": {s: v.tolist() for s, v in vectors.items()}}]}])  # fmt: skip
    finally:
        _index_maintained(db_url, PASSED_OVER, True)
    return vectors


def _unit(rng: np.random.Generator, dims: int) -> np.ndarray:
    vector = rng.standard_normal(dims)
    return vector / np.linalg.norm(vector)


def _index_maintained(url: str, space: str, ready: bool) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "UPDATE pg_index SET indisready = %s WHERE indexrelid = format('rag.%%I', "
            "api.hnsw_index((SELECT id FROM rag.spaces WHERE name = %s), "
            "(SELECT id FROM rag.collections WHERE name = 'default')))::regclass",
            (ready, space),
        )


def _search(url: str, vectors: dict[str, np.ndarray], space_weights: dict[str, float],
            check: bool = True) -> dict[str, Any]:  # fmt: skip
    with psycopg.connect(url, autocommit=True) as conn:
        return call_topk(conn, vectors, space_weights, (1.0, 0.0, 0.0), 5,
                         options={"strategy": "threshold", "walk_check": check})  # fmt: skip


def test_only_one_graph_passes_the_chunk_over(db_url: str, hidden: dict[str, np.ndarray]) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("SET hnsw.ef_search = 1000")
        found = {
            space: conn.execute(
                "SELECT %s::bigint = ANY ((api.space_nearest((SELECT id FROM rag.spaces "
                "WHERE name = %s), api.search_plan(ARRAY[%s::vector], ARRAY[%s], "
                "ARRAY[1.0]::float8[], 5, 1.0, 0, 0, '{}', '{}', 0, NULL, 'default'), 1, 50)).ids)",
                (HIDDEN, space, str(hidden[space].tolist()), space),
            ).fetchone()[0]
            for space in SPACES
        }
    assert found == {WALKED: True, PASSED_OVER: False}


def test_a_walk_is_checked_against_its_own_reads(
    db_url: str, hidden: dict[str, np.ndarray]
) -> None:
    """The chunk is read (and ranked) through WALKED's walk either way; PASSED_OVER's walk
    did not return it though it is nearer than that walk's bound: the search scans."""
    result = _search(db_url, hidden, {WALKED: 0.5, PASSED_OVER: 0.5})
    meta = result["meta"]
    assert result["rows"][0]["chunk_id"] == "hidden-0", meta
    assert meta["fell_back"] and meta["strategy"] == "scan", meta
    last = meta["rounds"][-1]
    assert last["sampled"] == 4 and last["sampled_beyond_bound"] == 1, last


def test_without_the_check_the_chunk_is_still_ranked_through_the_other_walk(
    db_url: str, hidden: dict[str, np.ndarray]
) -> None:
    result = _search(db_url, hidden, {WALKED: 0.5, PASSED_OVER: 0.5}, check=False)
    assert result["meta"]["strategy"] == "threshold", result["meta"]
    assert result["rows"][0]["chunk_id"] == "hidden-0"


def test_a_space_without_weight_is_not_checked(db_url: str, hidden: dict[str, np.ndarray]) -> None:
    result = _search(db_url, hidden, {WALKED: 1.0, PASSED_OVER: 0.0})
    meta = result["meta"]
    assert meta["strategy"] == "threshold" and not meta["fell_back"], meta
    last = meta["rounds"][-1]
    assert last["sampled"] == 2 and last["sampled_beyond_bound"] == 0, last
    assert result["rows"][0]["chunk_id"] == "hidden-0"
