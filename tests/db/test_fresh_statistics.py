"""A collection searched the moment it is loaded: the strategy is chosen from counts kept
at every commit (no ANALYZE needed), and the service analyzes a collection that API
writes changed enough, without waiting for autovacuum."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import numpy as np
import psycopg
import pytest

from conftest import PgServer, ServiceProcess, service_and_database
from helpers import assert_exact_topk, brute_force, call_topk, random_corpus, store_corpus, until

SPACES = {"default": 384}
WEIGHTS = (0.5, 0.3, 0.2)


def _create_collection(conn: psycopg.Connection, name: str) -> int:
    """A collection whose partitions autovacuum leaves alone (as in the first minute after
    a load, every time)."""
    collection = conn.execute("SELECT id FROM api.create_collection(%s)", (name,)).fetchone()[0]
    partitions = conn.execute("SELECT api.collection_partitions(%s)", (collection,)).fetchall()
    assert len(partitions) == 3  # the default space's vectors, the postings, the chunks
    for (partition,) in partitions:
        conn.execute(f"ALTER TABLE rag.{partition} SET (autovacuum_enabled = off)")
    return int(collection)


def _load(url: str, name: str, prefix: str, n_docs: int, seed: int) -> list:
    docs, chunks = random_corpus(np.random.default_rng(seed), prefix, n_docs=n_docs,
                                 chunks_per_doc=50, spaces=SPACES, missing=0.0)  # fmt: skip
    store_corpus(url, [{**d, "collection": name} for d in docs])
    return chunks


def _analyzed_rows(conn: psycopg.Connection, collection: int, table: str = "chunks") -> float:
    """pg_class.reltuples of the collection's partition of ``table`` (-1: never analyzed)."""
    sql = "SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)"
    return float(conn.execute(sql, (f"rag.{table}_{collection}",)).fetchone()[0])


@pytest.fixture(scope="module")
def conn(db_url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


def test_a_collection_searched_the_moment_it_is_loaded_gets_the_right_strategy(db_url, conn):
    collection = _create_collection(conn, "loaded_now")
    chunks = _load(db_url, "loaded_now", "now", n_docs=60, seed=3)
    assert _analyzed_rows(conn, collection) == -1  # never analyzed
    query = {"default": chunks[0].vectors["default"]}
    whole = call_topk(conn, query, {"default": 1.0}, WEIGHTS, 10, collection="loaded_now")
    one_doc = {"doc_ids": ["now-doc-7"]}
    filtered = call_topk(conn, query, {"default": 1.0}, WEIGHTS, 10, filters=one_doc,
                         collection="loaded_now")  # fmt: skip
    assert _analyzed_rows(conn, collection) == -1
    # 3,000 chunks, more than scan_rows (2,000): the threshold search; one document of
    # 50 chunks: a scan, both known from counts alone
    assert whole["meta"]["strategy"] == "threshold", whole["meta"]
    assert filtered["meta"]["strategy"] == "scan", filtered["meta"]
    assert filtered["meta"]["filtered_rows"] == 50
    assert_exact_topk(filtered["rows"], brute_force(chunks, query, {"default": 1.0}, WEIGHTS,
                                                    filters=one_doc), 10)  # fmt: skip


def test_statistics_are_refreshed_once_the_count_moved_enough(db_url, conn):
    collection = _create_collection(conn, "growing")

    def due() -> bool:
        return bool(conn.execute("SELECT api.statistics_due(%s, 1000, 0.5)", (collection,))
                    .fetchone()[0])  # fmt: skip

    def refresh() -> bool:
        return bool(conn.execute("SELECT api.refresh_statistics(%s, 1000, 0.5)", (collection,))
                    .fetchone()[0])  # fmt: skip

    _load(db_url, "growing", "g1", n_docs=10, seed=4)  # 500 chunks: fewer than 1,000 moved
    assert not due() and not refresh()
    _load(db_url, "growing", "g2", n_docs=30, seed=5)  # 2,000
    assert due()
    assert refresh()
    assert _analyzed_rows(conn, collection) == 2000
    # every partition of the collection, not only the chunks
    assert _analyzed_rows(conn, collection, "vectors_1") == 2000
    assert not due() and not refresh()
    _load(db_url, "growing", "g3", n_docs=20, seed=6)  # 3,000: moved 1,000, not half of 2,000
    assert not due()
    _load(db_url, "growing", "g4", n_docs=1, seed=7)  # 3,050: moved more than both
    assert due()


def test_a_second_session_does_not_queue_behind_a_refresh(db_url, conn):
    collection = _create_collection(conn, "contended")
    _load(db_url, "contended", "c", n_docs=30, seed=8)
    with psycopg.connect(db_url) as holder:  # a refresh in progress holds this lock
        holder.execute("SELECT pg_advisory_xact_lock(hashtext('ragsearch.statistics'), %s)",
                       (collection,))  # fmt: skip
        skipped = conn.execute("SELECT api.refresh_statistics(%s, 1000, 0.5)",
                               (collection,)).fetchone()[0]  # fmt: skip
    assert skipped is False
    assert _analyzed_rows(conn, collection) == -1


@pytest.fixture(scope="module")
def writer(pg: PgServer, template_db: str) -> Iterator[tuple[ServiceProcess, str]]:
    with service_and_database(pg, {"RAG_ANALYZE_MIN_CHANGE": "20",
                                   "RAG_DEFAULT_DIMS": "384"}) as served:  # fmt: skip
        yield served


def test_the_service_analyzes_a_collection_loaded_through_the_api(writer):
    service, url = writer
    with httpx.Client(base_url=service.base_url, timeout=60) as client:
        r = client.post("/api/rag/collections", json={"name": "api_loaded"})
        assert r.status_code in (200, 201), r.text
        with psycopg.connect(url, autocommit=True) as conn:
            collection = conn.execute("SELECT api.collection_id('api_loaded')").fetchone()[0]
            assert _analyzed_rows(conn, collection) == -1
            vector = [1.0] + [0.0] * 383
            for d in range(3):
                body = {"doc_id": f"d{d}", "collection": "api_loaded", "chunks": [
                    {"chunk_id": f"d{d}-{c}", "chunk": f"text {c}", "embedding": vector}
                    for c in range(10)]}  # fmt: skip
                assert client.post("/api/rag/documents", json=body).status_code == 200
            until(lambda: _analyzed_rows(conn, collection) == 30, 15, "the collection analyzed")
