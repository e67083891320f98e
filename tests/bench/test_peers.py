"""The benchmark's in-process peers (bench/peers.py) score as the service does: their
weighted re-scoring is held to api.rag_topk_weighted's exact scan on a real database, so
the two cannot drift apart, and both engines run on a small corpus read from it."""

from __future__ import annotations

import dataclasses
import math
import sys
from pathlib import Path

import numpy as np
import psycopg
import pytest

from helpers import AS_OF, call_topk, random_corpus, register_spaces, store_corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.peers import (
    Corpus,
    K,
    LanceDbPeer,
    Peers,
    best,
    exact_top,
    load_corpus,
    weighted_scores,
)
from bench.search_bench import MIXES

SPACE = "peers"
DIMS = 16
NOW = AS_OF.timestamp()


@pytest.fixture(scope="module")
def stored(db_url: str) -> list:
    register_spaces(db_url, {SPACE: DIMS})  # HNSW m 8, ef_construction 32
    rng = np.random.default_rng(33)
    docs, chunks = random_corpus(rng, "pe", n_docs=40, chunks_per_doc=30,
                                 spaces={SPACE: DIMS}, missing=0.0)  # fmt: skip
    store_corpus(db_url, docs)
    return chunks


@pytest.fixture(scope="module")
def conn(db_url: str, stored: list):
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


@pytest.fixture(scope="module")
def corpus(conn: psycopg.Connection) -> Corpus:
    return load_corpus(conn, space=SPACE)


def _queries(count: int, seed: int = 5) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [(v := rng.standard_normal(DIMS)) / np.linalg.norm(v) for _ in range(count)]


def _scan(conn: psycopg.Connection, weights: tuple[float, float, float], q: np.ndarray) -> list:
    result = call_topk(conn, {SPACE: q}, {SPACE: 1.0}, weights, K, options={"exact": True})
    assert result["meta"]["exact"] is True
    return result["rows"]


def test_the_corpus_is_read_as_stored(stored: list, corpus: Corpus) -> None:
    by_id = {chunk.chunk_id: chunk for chunk in stored}
    assert sorted(corpus.chunk_ids) == sorted(by_id)
    assert (corpus.hnsw_m, corpus.hnsw_ef_construction) == (8, 32)
    assert corpus.pgvector_index_bytes > 0
    for i, chunk_id in enumerate(corpus.chunk_ids):
        chunk = by_id[chunk_id]
        assert np.allclose(corpus.vectors[i], chunk.vectors[SPACE], atol=1e-7)
        assert corpus.created[i] == pytest.approx(chunk.created_at.timestamp(), abs=1e-6)
        assert corpus.signal[i] == pytest.approx(chunk.signal, abs=1e-6)  # stored as real


@pytest.mark.parametrize("weights", MIXES, ids=[f"{a}/{b}/{c}" for a, b, c in MIXES])
def test_the_weighted_score_is_the_scans(
    conn: psycopg.Connection, corpus: Corpus, weights: tuple[float, float, float]
) -> None:
    position = {chunk_id: i for i, chunk_id in enumerate(corpus.chunk_ids)}
    unit = corpus.unit_vectors.astype(np.float64)
    for q in _queries(4):
        rows = _scan(conn, weights, q)
        assert exact_top(corpus, weights, q, NOW) == [row["chunk_id"] for row in rows]
        at = [position[row["chunk_id"]] for row in rows]
        scores = weighted_scores(unit[at] @ q, corpus.created[at], corpus.signal[at], weights,
                                 NOW)  # fmt: skip
        for row, score in zip(rows, scores, strict=True):
            assert math.isclose(row["score"], score, abs_tol=1e-6), (row, score)


def test_ties_go_to_the_lower_chunk_id() -> None:
    ids = np.asarray(["c3", "c1", "c2", "c0"], dtype=object)
    assert best(ids, np.asarray([0.5, 0.9, 0.5, 0.1]), k=2) == ["c1", "c2"]
    assert best(ids, np.asarray([0.5, 0.9, 0.5, 0.1]), k=5) == ["c1", "c2", "c3", "c0"]


def test_rescoring_every_row_in_lancedb_is_the_scan(
    conn: psycopg.Connection, corpus: Corpus, tmp_path: Path
) -> None:
    """With N past the corpus's size, LanceDB's top-N is every row: re-scored, the scan."""
    lance = LanceDbPeer(corpus, ef_search=100, folder=tmp_path / "lancedb")
    every_row = lance.rescored(2 * len(corpus.chunk_ids))
    for weights in MIXES:
        for q in _queries(2, seed=9):
            scan = [row["chunk_id"] for row in _scan(conn, weights, q)]
            assert every_row(weights, q, NOW) == scan


def test_the_peers_find_the_scans_rows_by_vector(
    conn: psycopg.Connection, corpus: Corpus, tmp_path: Path
) -> None:
    """On 1,200 rows an HNSW graph built as pgvector's default (m 16, ef_construction 200)
    finds the cosine top-10 (LanceDB's plain search, ranking by its 8-bit codes, nearly);
    with recency weighing most, the plain top-10 by vector misses
    most rows the scan returns, and re-scoring LanceDB's top-1000 finds them again."""
    peers = Peers(dataclasses.replace(corpus, hnsw_m=16, hnsw_ef_construction=200),
                  ef_search=100, folder=tmp_path)  # fmt: skip
    # FAISS and LanceDB built here, pgvector's index as the database holds it
    built = [(b.index_bytes > 0, b.seconds is not None) for b in peers.builds]
    assert built == [(True, True), (True, True), (True, False)]
    by_vector: dict[str, list[float]] = {name: [] for name in peers.searches}
    weighted: dict[str, list[float]] = {name: [] for name in peers.searches}
    for q in _queries(10, seed=11):
        for weights, recall in (((1.0, 0.0, 0.0), by_vector), ((0.2, 0.6, 0.2), weighted)):
            truth = {row["chunk_id"] for row in _scan(conn, weights, q)}
            for name, search in peers.searches.items():
                recall[name].append(len(set(search(weights, q, NOW)) & truth) / K)
    exact_distances = ["hnsw_mem", "lancedb_rescored_100", "lancedb_rescored_1000"]
    assert min(np.mean(by_vector[name]) for name in exact_distances) >= 0.98, by_vector
    # LanceDB's plain top-10 ranks by its 8-bit codes: near ties at the 10th row can swap
    assert np.mean(by_vector["lancedb"]) >= 0.9, by_vector
    assert np.mean(weighted["hnsw_mem"]) < 0.5 and np.mean(weighted["lancedb"]) < 0.5, weighted
    assert np.mean(weighted["lancedb_rescored_1000"]) >= 0.8, weighted
