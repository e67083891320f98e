"""A read that meets a function moved from under it (as a search can while Citus moves a
shard group: "cache lookup failed for function", XX000) is asked once more: the client
gets its answer, not a 500. Here each read's SQL function fails once, on purpose: the
ranking, the one-space search, explain (and its rank count) and facets."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
from psycopg import sql

from conftest import WRITE_KEY, PgServer, ServiceProcess, service_and_database

DIMS = 384
# api.<name> renamed to <name>_moved and replaced by a function with its arguments and
# result that fails on its first call and hands every later one on
FAIL_ONCE = sql.SQL("""
DO $do$
DECLARE
    f oid := (SELECT oid FROM pg_proc
              WHERE pronamespace = 'api'::regnamespace AND proname = {name});
    v_moved text := {name} || '_moved';
    v_args text;
BEGIN
    SELECT string_agg('$' || n, ', ') INTO v_args
    FROM generate_series(1, (SELECT pronargs FROM pg_proc WHERE oid = f)) AS n;
    EXECUTE format('ALTER FUNCTION %s RENAME TO %I', f::regprocedure, v_moved);
    EXECUTE format(
        'CREATE FUNCTION api.%I(%s) RETURNS %s LANGUAGE plpgsql AS $f$ BEGIN '
        'IF nextval(''public.moved_calls'') = 1 THEN '
        'RAISE EXCEPTION ''cache lookup failed for function 1'' USING ERRCODE = ''XX000''; '
        'END IF; RETURN api.%I(%s); END $f$',
        {name}, pg_get_function_arguments(f), pg_get_function_result(f), v_moved, v_args);
END $do$;
""")


def _vector(seed: int) -> list[float]:
    return [((seed * 7 + i * 13) % 17 + 1) / 17.0 for i in range(DIMS)]


QUERY = {"embedding": _vector(2), "k": 3}
READS = [  # (the SQL function, the request that reads through it)
    ("topk", "/api/rag/search", QUERY),
    (
        "space_topk",
        "/api/rag/search/space/default",
        {"query_embedding": QUERY["embedding"], "top_k": 3},
    ),
    ("explain", "/api/rag/explain", {**QUERY, "chunk_id": "moved-2"}),
    ("facets", "/api/rag/facets", {"fields": ["doc_id"]}),
]


@pytest.fixture
def served(pg: PgServer, template_db: str) -> Iterator[tuple[ServiceProcess, str]]:
    with service_and_database(pg, {"RAG_API_KEYS": WRITE_KEY}) as served:
        yield served


@pytest.mark.parametrize(("function", "path", "body"), READS, ids=[r[0] for r in READS])
def test_a_read_that_meets_a_moved_function_is_asked_again(
    served: tuple[ServiceProcess, str], function: str, path: str, body: dict[str, Any]
) -> None:
    service, url = served
    headers = {"Authorization": f"Bearer {WRITE_KEY}"}
    chunks = [{"chunk_id": f"moved-{i}", "chunk": f"chunk {i}", "embedding": _vector(i)}
              for i in range(5)]  # fmt: skip
    with httpx.Client(base_url=service.base_url, headers=headers, timeout=30) as http:
        stored = http.post("/api/rag/documents", json={"doc_id": "moved", "chunks": chunks})
        assert stored.status_code == 200, stored.text
        expected = http.post(path, json=body)
        assert expected.status_code == 200, expected.text
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE SEQUENCE public.moved_calls")
            conn.execute(FAIL_ONCE.format(name=sql.Literal(function)))
        again = http.post(path, json=body)
    assert again.status_code == 200, again.text
    assert _answer(again.json()) == _answer(expected.json())
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT last_value FROM public.moved_calls").fetchone()[0] == 2


def _answer(body: dict[str, Any]) -> tuple[list[str], int | None, Any]:
    """What a response says that does not move with the clock (recency does): the chunks
    ranked, explain's rank, the facets' counts."""
    rows = body.get("rows", body.get("results", []))
    return [row["chunk_id"] for row in rows], body.get("rank"), body.get("facets")
