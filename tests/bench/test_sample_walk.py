"""bench/sample_walk.py's prototype installed on a test database inside a transaction: the
sample walked through a graph of its own catches the chunk the collection's graph passed
over, as the scored sample does, agrees where the walk was right, and leaves nothing
behind once rolled back."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from helpers import call_topk, random_corpus, register_spaces, store_corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.sample_walk import INDEX, install

SPACE = "walked"
SPACES = {SPACE: 16}
HIDDEN = 100_000  # a sampled key (api.sample_predicate: 1 in 100)
SAMPLED = 11  # the corpus's keys 100, 200, ..., 1,000 and the hidden one


def _hidden_chunk(db_url: str) -> np.ndarray:
    """1,000 chunks, then one sampled chunk the collection's HNSW graph does not hold;
    returns its vector."""
    rng = np.random.default_rng(12)
    register_spaces(db_url, SPACES)
    docs, _ = random_corpus(rng, "sw", n_docs=20, chunks_per_doc=50, spaces=SPACES, missing=0)
    store_corpus(db_url, docs)
    hidden = rng.standard_normal(SPACES[SPACE])
    hidden /= np.linalg.norm(hidden)
    graph = ("UPDATE pg_index SET indisready = %s WHERE indexrelid = format('rag.%%I', "
             "api.hnsw_index((SELECT id FROM rag.spaces WHERE name = %s), "
             "api.collection_id('default')))::regclass")  # fmt: skip
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(graph, (False, SPACE))
        conn.execute("SELECT setval(pg_get_serial_sequence('rag.chunks', 'id'), %s)",
                     (HIDDEN - 1,))  # fmt: skip
    store_corpus(db_url, [{"doc_id": "hidden", "chunks": [
        {"chunk_id": "hidden-0", "chunk": "kept out of the graph",
         "embeddings": {SPACE: hidden.tolist()}}]}])  # fmt: skip
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(graph, (True, SPACE))
    return hidden


def _search(conn: psycopg.Connection, query: np.ndarray) -> dict[str, Any]:
    return call_topk(conn, {SPACE: query}, {SPACE: 1.0}, (1.0, 0.0, 0.0), 5,
                     options={"strategy": "threshold"})  # fmt: skip


def test_the_walked_sample_catches_what_the_graph_passed_over(db_url: str) -> None:
    hidden = _hidden_chunk(db_url)
    far = hidden[::-1].copy()
    with psycopg.connect(db_url) as conn:  # one transaction, rolled back
        register_vector(conn)
        install(conn, 40, SPACE)
        near_walked, far_walked = _search(conn, hidden), _search(conn, far)
        conn.rollback()
        (left,) = conn.execute("SELECT count(*) FROM pg_indexes WHERE indexname = %s",
                               (INDEX,)).fetchone()  # fmt: skip
        far_scored = _search(conn, far)
    assert near_walked["rows"][0]["chunk_id"] == "hidden-0"
    assert near_walked["meta"]["fell_back"], near_walked["meta"]
    last = near_walked["meta"]["rounds"][-1]
    assert last["sampled_beyond_bound"] == 1 and 1 <= last["sampled"] < SAMPLED, last
    last = far_walked["meta"]["rounds"][-1]
    assert not far_walked["meta"]["fell_back"] and last["sampled_beyond_bound"] == 0, last
    assert last["sampled"] < SAMPLED  # walked to the bound, not scored whole
    # rolled back: the index gone, the sample scored whole again
    assert left == 0 and far_scored["meta"]["rounds"][-1]["sampled"] == SAMPLED
