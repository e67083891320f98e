"""A threshold search reads the static region (the chunks whose recency and signal alone
could still reach theta) only when its bound leaves one: with similarity alone, once the
walk has read past the k best, no chunk it has not read can reach theta, and the round
reads no region at all (no boxes, no call)."""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
import pytest

from helpers import call_topk, random_corpus, register_spaces, store_corpus

SPACE = "regionless"
SPACES = {SPACE: 16}
THRESHOLD = {"strategy": "threshold"}
REGION_READERS = ("space_region", "region_ids", "region_chunks")


@pytest.fixture(scope="module")
def query(db_url: str) -> np.ndarray:
    rng = np.random.default_rng(23)
    register_spaces(db_url, SPACES)
    docs, _ = random_corpus(rng, "rr", n_docs=10, chunks_per_doc=40, spaces=SPACES, missing=0)
    store_corpus(db_url, docs)
    vector = rng.standard_normal(SPACES[SPACE])
    return vector / np.linalg.norm(vector)


def _search_and_calls(
    db_url: str, query: np.ndarray, weights: tuple[float, float, float]
) -> tuple[dict[str, Any], dict[str, int]]:
    """One search in a transaction of its own, and the calls it made of each function of
    schema api (the transaction's own function statistics)."""
    with psycopg.connect(db_url) as conn:
        conn.execute("SET LOCAL track_functions = 'pl'")
        result = call_topk(conn, {SPACE: query}, {SPACE: 1.0}, weights, 5, options=THRESHOLD)
        calls = dict(
            conn.execute(
                "SELECT funcname, calls FROM pg_stat_xact_user_functions WHERE schemaname = 'api'"
            ).fetchall()
        )
        conn.rollback()
    return result, calls


def test_similarity_alone_reads_no_region(db_url: str, query: np.ndarray) -> None:
    result, calls = _search_and_calls(db_url, query, (1.0, 0.0, 0.0))
    meta = result["meta"]
    assert meta["strategy"] == "threshold" and not meta["fell_back"]
    assert [(r["boxes"], r["region"]) for r in meta["rounds"]] == [(0, 0)]
    assert calls.get("topk_threshold") == 1
    assert not {name: calls[name] for name in REGION_READERS if name in calls}
    assert len(result["rows"]) == 5


def test_recency_and_signal_still_read_their_region(db_url: str, query: np.ndarray) -> None:
    result, calls = _search_and_calls(db_url, query, (0.5, 0.3, 0.2))
    meta = result["meta"]
    assert meta["strategy"] == "threshold" and not meta["fell_back"]
    assert any(r["boxes"] > 0 for r in meta["rounds"])
    assert calls.get("space_region", 0) >= 1  # the round's read (seeds read region_chunks too)
