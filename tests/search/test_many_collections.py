"""A search in a database with many collections. Every collection is a partition of each
per-chunk table, and a generic plan covers them all: it locks every partition each time
it runs and is costed over all of them. The search functions plan their statements once
per connection up to api.generic_plan_collections() collections and per call past it
(api.search_plans_mode; the session setting ragsearch.plans overrides the choice), and
their look-ups by key stay look-ups under either. Deleting chunks plans the deletion of
their postings and vectors in their own collections' partitions only (rag.chunks_deleted,
migration 0019)."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

from helpers import AS_OF, call_topk, random_corpus, register_spaces, store_corpus

SPACE = "manycol"
SPACES = {SPACE: 16}
CHUNKS = 2_000
THRESHOLD = {"strategy": "threshold"}


@pytest.fixture(scope="module")
def query(db_url: str) -> np.ndarray:
    rng = np.random.default_rng(31)
    register_spaces(db_url, SPACES)
    docs, _ = random_corpus(rng, "mc", n_docs=20, chunks_per_doc=CHUNKS // 20, spaces=SPACES,
                            missing=0)  # fmt: skip
    store_corpus(db_url, docs)
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE rag.chunks")
    vector = rng.standard_normal(SPACES[SPACE])
    return vector / np.linalg.norm(vector)


def _hold(db_url: str, count: int) -> None:
    """Empty collections added, or the added ones dropped, until the database holds
    ``count``."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM rag.collections").fetchone()
        assert row is not None
        for n in range(row[0], count):
            conn.execute("SELECT api.create_collection(%s)", (f"many_{n}",))
        for n in range(row[0] - 1, count - 1, -1):
            conn.execute("SELECT api.drop_collection(%s)", (f"many_{n}",))


def _limit(db_url: str) -> int:
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT api.generic_plan_collections()").fetchone()
        assert row is not None
        return int(row[0])


def _mode(db_url: str, plans: str | None = None) -> str:
    with psycopg.connect(db_url) as conn:
        if plans is not None:
            conn.execute("SELECT set_config('ragsearch.plans', %s, false)", (plans,))
        row = conn.execute("SELECT api.search_plans_mode()").fetchone()
        assert row is not None
        return str(row[0])


def _search(conn: psycopg.Connection, query: np.ndarray, weights: tuple[float, float, float],
            **kwargs: Any) -> dict[str, Any]:  # fmt: skip
    return call_topk(conn, {SPACE: query}, {SPACE: 1.0}, weights, 10, **kwargs)


def _keywords(conn: psycopg.Connection, query: np.ndarray, weights: tuple[float, float, float],
              options: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """A search with keywords weighted 0.2 beside the given weights ("chunk" is in every
    chunk's text, "7" in a few)."""
    register_vector(conn)
    row = conn.execute(
        "SELECT api.rag_topk_weighted(%b, ARRAY[%s], ARRAY[1.0]::float8[], 10, %s, %s, %s, "
        "'{}', %s, 0.2, 'chunk 7')",
        ([Vector(query)], SPACE, *weights, Jsonb({"as_of": AS_OF.isoformat(), **options})),
    ).fetchone()
    assert row is not None
    result: dict[str, Any] = row[0]
    return result


def _one_space(conn: psycopg.Connection, query: np.ndarray) -> dict[str, Any]:
    """The one-space search (api.space_topk) of the service's plain nearest-neighbour
    endpoint, under a plan made by api.search_plan."""
    register_vector(conn)
    row = conn.execute(
        "SELECT api.space_topk((s.p).collection_id, s.p, NULL) FROM (SELECT api.search_plan("
        "%b, ARRAY[%s], ARRAY[1.0]::float8[], 10, 1, 0, 0, '{}', '{}', 0, NULL, 'default') p) s",
        ([Vector(query)], SPACE),
    ).fetchone()
    assert row is not None
    result: dict[str, Any] = row[0]
    return result


def _session(db_url: str, plans: str | None) -> psycopg.Connection:
    options = f"-c ragsearch.plans={plans}" if plans else ""
    return psycopg.connect(db_url, autocommit=True, options=options)


@pytest.mark.parametrize("weights", [(1.0, 0.0, 0.0), (0.8, 0.1, 0.1)])
def test_generic_look_ups_read_what_they_look_up(
    db_url: str, query: np.ndarray, weights: tuple[float, float, float]
) -> None:
    """Planned once for as many collections as generic plans are kept for, the scoring and
    the rows still look their chunks up by key: costed over every partition, a join that
    read the whole searched collection (hashed, or kept in memory and filtered) looked
    cheaper (each empty partition priced as an index probe per chunk looked up)."""
    _hold(db_url, _limit(db_url))
    with _session(db_url, "generic") as conn:
        conn.autocommit = False
        for _ in range(2):  # the connection's plans made, then used
            result = _search(conn, query, weights, options=THRESHOLD)
            fetched = conn.execute(
                "SELECT coalesce(sum(idx_tup_fetch + seq_tup_read), 0) "
                "FROM pg_stat_xact_user_tables "
                "WHERE schemaname = 'rag' AND relname ~ '^chunks_[0-9]+$'"
            ).fetchone()
            conn.rollback()
    assert result["meta"]["strategy"] == "threshold" and len(result["rows"]) == 10
    # a few reads of what the walk brought, not the collection (2,000 per statement before)
    assert fetched is not None and 0 < fetched[0] <= 3 * result["meta"]["candidates_scanned"] + 10


def test_generic_plans_up_to_the_limit_then_per_call(db_url: str, query: np.ndarray) -> None:
    limit = _limit(db_url)
    _hold(db_url, limit)
    assert _mode(db_url) == "force_generic_plan"
    assert _mode(db_url, "custom") == "force_custom_plan"
    _hold(db_url, limit + 1)
    assert _mode(db_url) == "force_custom_plan"
    assert _mode(db_url, "generic") == "force_generic_plan"


def _locks_held(db_url: str, query: np.ndarray, plans: str | None) -> int:
    """The locks a search holds at its end (the connection's second search)."""
    with _session(db_url, plans) as conn:
        conn.autocommit = False
        for _ in range(2):
            _search(conn, query, (0.8, 0.1, 0.1), options=THRESHOLD)
            row = conn.execute(
                "SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()"
            ).fetchone()
            conn.rollback()
    assert row is not None
    return int(row[0])


def test_past_the_limit_a_search_locks_its_own_collection(db_url: str, query: np.ndarray) -> None:
    collections = 120
    _hold(db_url, collections)
    assert _locks_held(db_url, query, "generic") > collections  # every partition, each table
    assert _locks_held(db_url, query, None) < 64  # the server's fast-path share per backend


def test_past_the_limit_searches_at_once_all_answer(db_url: str, query: np.ndarray) -> None:
    """With generic plans, each new connection's first search locked every partition of
    every table it planned: a few at once filled the server's lock table (out of shared
    memory with PostgreSQL's default max_locks_per_transaction and max_connections, which
    the test server keeps; a server with a far larger lock table would not show it)."""
    _hold(db_url, 300)
    failures: list[str] = []
    answered: list[int] = []

    def searches() -> None:
        try:
            with _session(db_url, None) as conn:
                for weights in ((1.0, 0.0, 0.0), (0.8, 0.1, 0.1), (0.5, 0.3, 0.2)):
                    answered.append(len(_search(conn, query, weights)["rows"]))
        except psycopg.Error as error:
            failures.append(str(error))

    threads = [threading.Thread(target=searches) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert answered == [10] * 24


def test_past_the_limit_deleting_chunks_locks_their_collection(
    db_url: str, query: np.ndarray
) -> None:
    """Before, deleting chunks deleted their postings and vectors in statements planned over
    every collection's partition: 3,057 locks for one chunk with 502 collections."""
    _hold(db_url, 300)
    with psycopg.connect(db_url) as conn:
        row = conn.execute(
            "SELECT (SELECT id FROM rag.spaces WHERE name = %s), min(collection_id), "
            "array_agg(id) FROM (SELECT id, collection_id FROM rag.chunks "
            "WHERE collection_id = api.collection_id('default') ORDER BY id LIMIT 3) c",
            (SPACE,),
        ).fetchone()
        assert row is not None
        space, collection, ids = row
        conn.commit()  # that read locked every partition (its collection a function's value)
        stored = (
            "SELECT (SELECT count(*) FROM rag.lex_postings "
            "        WHERE collection_id = %(c)s AND chunk_pk = ANY (%(ids)s)), "
            f"(SELECT count(*) FROM rag.vectors_{int(space)} "
            "        WHERE collection_id = %(c)s AND chunk_pk = ANY (%(ids)s))"
        )
        before = conn.execute(stored, {"c": collection, "ids": ids}).fetchone()
        conn.commit()
        # as the service deletes a document's chunks: in its collection
        conn.execute("DELETE FROM rag.chunks WHERE collection_id = %s AND id = ANY (%s)",
                     (collection, ids))  # fmt: skip
        held = conn.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()").fetchone()
        after = conn.execute(stored, {"c": collection, "ids": ids}).fetchone()
        conn.rollback()
    assert before is not None and before[0] > 0 and before[1] == 3
    assert after == (0, 0)
    assert held is not None and held[0] < 100


CASES: dict[str, dict[str, Any]] = {
    "similarity": {"weights": (1.0, 0.0, 0.0), "options": THRESHOLD},
    "blend": {"weights": (0.5, 0.3, 0.2), "options": THRESHOLD},
    "filter": {"weights": (0.8, 0.1, 0.1), "filters": {"tags_any": ["alpha"]}},
    "one per source": {"weights": (0.8, 0.1, 0.1), "options": {"max_per_source": 1}},
    "scan": {"weights": (0.5, 0.3, 0.2), "options": {"exact": True}},
    "rrf": {"weights": (0.5, 0.3, 0.2), "options": {"fusion": "rrf"}},
}


KEYWORD_CASES: dict[str, dict[str, Any]] = {
    "keywords in a blend": {"weights": (0.5, 0.2, 0.1), "options": {}},
    "keywords in rrf": {"weights": (0.5, 0.2, 0.1), "options": {"fusion": "rrf"}},
}


def _ranked(result: dict[str, Any], score: str = "score") -> list[tuple[str, float]]:
    return [(r["chunk_id"], r[score]) for r in result["rows"]]


@pytest.mark.parametrize("case", [*CASES, *KEYWORD_CASES, "one space"])
def test_plans_per_call_rank_as_generic_plans(db_url: str, query: np.ndarray, case: str) -> None:
    _hold(db_url, 300)
    ranked = {}
    for plans in ("generic", "custom"):
        with _session(db_url, plans) as conn:
            if case in CASES:
                ranked[plans] = _ranked(_search(
                    conn, query, CASES[case]["weights"], filters=CASES[case].get("filters"),
                    options=CASES[case].get("options")))  # fmt: skip
            elif case in KEYWORD_CASES:
                ranked[plans] = _ranked(_keywords(conn, query, **KEYWORD_CASES[case]))
            else:
                ranked[plans] = _ranked(_one_space(conn, query), "similarity")
    assert ranked["generic"] and ranked["custom"] == ranked["generic"]
