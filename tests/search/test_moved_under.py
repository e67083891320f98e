"""A ranking that meets a function moved from under it (as a search can while Citus
moves a shard group: "cache lookup failed for function", XX000) is asked once more: the
client gets its answer, not a 500. Here the ranking function fails once, on purpose."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import psycopg
import pytest

from conftest import WRITE_KEY, PgServer, ServiceProcess, service_and_database

DIMS = 384
FAIL_ONCE = """
CREATE SEQUENCE public.topk_calls;
ALTER FUNCTION api.topk(integer, api.search_plan) RENAME TO topk_moved;
CREATE FUNCTION api.topk(p_collection integer, p_plan api.search_plan) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
    IF nextval('public.topk_calls') = 1 THEN
        RAISE EXCEPTION 'cache lookup failed for function 1' USING ERRCODE = 'XX000';
    END IF;
    RETURN api.topk_moved(p_collection, p_plan);
END $$;
"""


def _vector(seed: int) -> list[float]:
    return [((seed * 7 + i * 13) % 17 + 1) / 17.0 for i in range(DIMS)]


@pytest.fixture
def served(pg: PgServer, template_db: str) -> Iterator[tuple[ServiceProcess, str]]:
    with service_and_database(pg, {"RAG_API_KEYS": WRITE_KEY}) as served:
        yield served


def test_a_ranking_that_meets_a_moved_function_is_asked_again(served):
    service, url = served
    headers = {"Authorization": f"Bearer {WRITE_KEY}"}
    chunks = [{"chunk_id": f"moved-{i}", "chunk": f"chunk {i}", "embedding": _vector(i)}
              for i in range(5)]  # fmt: skip
    with httpx.Client(base_url=service.base_url, headers=headers, timeout=30) as http:
        stored = http.post("/api/rag/documents", json={"doc_id": "moved", "chunks": chunks})
        assert stored.status_code == 200, stored.text
        body = {"embedding": _vector(2), "k": 3}
        expected = http.post("/api/rag/search", json=body).json()["rows"]
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(FAIL_ONCE)
        again = http.post("/api/rag/search", json=body)
    assert again.status_code == 200, again.text
    assert [r["chunk_id"] for r in again.json()["rows"]] == [r["chunk_id"] for r in expected]
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT last_value FROM public.topk_calls").fetchone()[0] == 2
