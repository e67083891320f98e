"""A threshold search checks the index walk its bound trusts against a sample of the
collection (1 chunk in 100, by key), walked through a graph of its own to the walk's
bound and scored exactly: a sampled chunk the walk did not return yet nearer than the
walk's bound proves the walk passed chunks over, and the search scans instead of closing
on a wrong bound. Here a chunk is kept out of the HNSW graph (the
index not maintained while it is stored), as a walk routed into the wrong part of a graph
leaves chunks out."""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

from helpers import call_topk, random_corpus, register_spaces, store_corpus

SPACE = "probe"
SPACES = {SPACE: 16}
THRESHOLD = {"strategy": "threshold"}
HIDDEN = 100_000  # a sampled key (api.sample_predicate: 1 in 100)
SAMPLED = 11  # the corpus's keys 100, 200, ..., 1,000 and the hidden one
CORPUS_ONLY = {"doc_ids": [f"wc-doc-{d}" for d in range(20)]}  # not the hidden chunk


@pytest.fixture(scope="module")
def corpus(db_url: str) -> np.ndarray:
    """1,000 chunks (ten sampled keys among them), then one sampled chunk the graph does
    not hold; returns that chunk's vector."""
    rng = np.random.default_rng(11)
    register_spaces(db_url, SPACES)
    docs, _ = random_corpus(rng, "wc", n_docs=20, chunks_per_doc=50, spaces=SPACES, missing=0)
    store_corpus(db_url, docs)
    hidden = rng.standard_normal(SPACES[SPACE])
    hidden /= np.linalg.norm(hidden)
    _index_maintained(db_url, False)
    try:
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute("SELECT setval(pg_get_serial_sequence('rag.chunks', 'id'), %s)",
                         (HIDDEN - 1,))  # fmt: skip
        store_corpus(db_url, [{"doc_id": "hidden", "chunks": [
            {"chunk_id": "hidden-0", "chunk": "kept out of the graph",
             "embeddings": {SPACE: hidden.tolist()}}]}])  # fmt: skip
    finally:
        _index_maintained(db_url, True)
    return hidden


def _index_maintained(url: str, ready: bool) -> None:
    """The space's HNSW index on the default collection taken in (or kept out of) writes;
    still used by searches throughout."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "UPDATE pg_index SET indisready = %s WHERE indexrelid = format('rag.%%I', "
            "api.hnsw_index((SELECT id FROM rag.spaces WHERE name = %s), "
            "(SELECT id FROM rag.collections WHERE name = 'default')))::regclass",
            (ready, SPACE),
        )


def _search(db_url: str, query: np.ndarray, check: bool = True, **extra: Any) -> dict[str, Any]:
    with psycopg.connect(db_url, autocommit=True) as conn:
        return call_topk(conn, {SPACE: query}, {SPACE: 1.0}, (1.0, 0.0, 0.0), 5,
                         options={**THRESHOLD, "walk_check": check}, **extra)  # fmt: skip


def test_the_walk_does_not_return_the_hidden_chunk(db_url: str, corpus: np.ndarray) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("SET hnsw.ef_search = 1000")
        walked = conn.execute(
            "SELECT c.chunk_id FROM rag.chunks c WHERE c.id = ANY ("
            "(api.space_nearest((SELECT id FROM rag.spaces WHERE name = %s), "
            "api.search_plan(ARRAY[%s::vector], ARRAY[%s], ARRAY[1.0]::float8[], 5, 1.0, 0, 0,"
            " '{}', '{}', 0, NULL, 'default'), 1, 50)).ids)",
            (SPACE, str(corpus.tolist()), SPACE),
        ).fetchall()
    assert len(walked) == 50 and ("hidden-0",) not in walked


def test_a_walk_that_passed_a_nearer_sampled_chunk_over_is_not_trusted(
    db_url: str, corpus: np.ndarray
) -> None:
    result = _search(db_url, corpus)
    meta = result["meta"]
    assert result["rows"][0]["chunk_id"] == "hidden-0", meta
    assert meta["fell_back"] and meta["exact"] and meta["strategy"] == "scan", meta
    assert "sampled chunk" in meta["strategy_reason"]
    last = meta["rounds"][-1]
    assert last["sampled"] >= 1 and last["sampled_beyond_bound"] == 1, last
    assert last["sampled_best"] == pytest.approx(1.0, abs=1e-6)


def test_without_the_check_the_search_closes_on_the_wrong_bound(
    db_url: str, corpus: np.ndarray
) -> None:
    result = _search(db_url, corpus, check=False)
    assert result["meta"]["strategy"] == "threshold" and not result["meta"]["fell_back"]
    assert all(r["chunk_id"] != "hidden-0" for r in result["rows"])
    assert "sampled" not in result["meta"]["rounds"][-1]


def test_a_walk_the_sample_agrees_with_closes(db_url: str, corpus: np.ndarray) -> None:
    query = corpus[::-1].copy()  # far from the hidden chunk
    result = _search(db_url, query)
    meta = result["meta"]
    assert meta["strategy"] == "threshold" and not meta["fell_back"], meta
    last = meta["rounds"][-1]
    assert last["sampled"] <= SAMPLED and last["sampled_beyond_bound"] == 0, last


def test_a_sampled_chunk_the_filter_excludes_does_not_count(
    db_url: str, corpus: np.ndarray
) -> None:
    result = _search(db_url, corpus, filters=CORPUS_ONLY)
    meta = result["meta"]
    assert not meta["fell_back"] and all(r["chunk_id"] != "hidden-0" for r in result["rows"])
    last = meta["rounds"][-1]
    # the hidden chunk walked and scored (nearest of all), then left out by the filter
    assert last["sampled"] >= 1 and last["sampled_beyond_bound"] == 0, last


def _check(corpus: np.ndarray, db_url: str, bound: float,
           read: list[int] | None = None) -> tuple[int, int]:  # fmt: skip
    """(sampled, beyond) of the check for the query corpus at bound, the walk having read
    read (none by default)."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT (c).sampled, (c).beyond FROM (SELECT api.space_sample(s.id, "
            "api.search_plan(ARRAY[%s::vector], ARRAY[s.name], ARRAY[1.0]::float8[], 5, 1.0, "
            "0, 0, '{}', '{}', 0, NULL, 'default'), 1, %s::bigint[], %s) AS c "
            "FROM rag.spaces s WHERE s.name = %s) x",
            (str(corpus.tolist()), read or [], bound, SPACE),
        ).fetchone()
    return int(row[0]), int(row[1])


def test_the_check_walks_the_sample_to_the_bound(db_url: str, corpus: np.ndarray) -> None:
    """Every sampled chunk under a bound nothing falls below; near the query's own vector,
    only the hidden chunk itself (similarity 1); in between, the chunks nearer than the
    bound and no more."""
    every = [HIDDEN, *range(100, 1_001, 100)]
    assert _check(corpus, db_url, -1.0, read=every) == (SAMPLED, 0)
    assert _check(corpus, db_url, 0.999) == (1, 1)
    with psycopg.connect(db_url, autocommit=True) as conn:
        register_vector(conn)
        sims = sorted(float(1 - row[0]) for row in conn.execute(
            f"SELECT v.embedding <=> %s FROM rag.vectors_{_space_id(conn, SPACE)} v "
            "WHERE v.chunk_pk %% 100 = 0", (corpus,)))  # fmt: skip
    between = (sims[-4] + sims[-5]) / 2  # four sampled chunks nearer than this
    assert _check(corpus, db_url, between) == (4, 4)


def test_eight_sampled_chunks_past_the_bound_are_proof_enough(
    db_url: str, corpus: np.ndarray
) -> None:
    # nothing read and no bound: every sampled chunk proves the walk wrong; the check
    # stops at the eighth
    assert _check(corpus, db_url, -1.0) == (8, 8)


def test_the_check_keeps_to_the_sample_index_on_a_cached_plan(
    db_url: str, corpus: np.ndarray
) -> None:
    """Searches on one connection past the point where PL/pgSQL keeps a generic plan: the
    hidden chunk, in the sample's graph only, is found by every check."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        for _ in range(8):
            meta = call_topk(conn, {SPACE: corpus}, {SPACE: 1.0}, (1.0, 0.0, 0.0), 5,
                             options=THRESHOLD)["meta"]  # fmt: skip
            assert meta["fell_back"] and meta["rounds"][-1]["sampled_beyond_bound"] == 1, meta


@pytest.mark.parametrize("dims", [600, 1000])
def test_a_sampled_chunk_of_any_width_is_stored_and_checked(db_url: str, dims: int) -> None:
    """The sample's graph holds vectors as wide as the collections' graphs do, and the
    check walks it (its index, not the collection's graph or the table)."""
    space = f"wide{dims}"
    register_spaces(db_url, {space: dims})
    rng = np.random.default_rng(dims)
    vector = rng.standard_normal(dims)
    vector /= np.linalg.norm(vector)
    with psycopg.connect(db_url, autocommit=True) as conn:
        sequence = conn.execute("SELECT pg_get_serial_sequence('rag.chunks', 'id')").fetchone()[0]
        start = conn.execute(f"SELECT last_value FROM {sequence}").fetchone()[0]
        conn.execute("SELECT setval(%s, %s)", (sequence, (start // 1000 + 1) * 1000 - 1))
    chunk = {"chunk_id": space, "chunk": "sampled", "embeddings": {space: vector.tolist()}}
    store_corpus(db_url, [{"doc_id": space, "chunks": [chunk]}])
    with psycopg.connect(db_url, autocommit=True) as conn:
        result = call_topk(conn, {space: vector}, {space: 1.0}, (1.0, 0.0, 0.0), 1,
                           options=THRESHOLD)  # fmt: skip
    assert result["rows"][0]["chunk_id"] == space
    assert result["meta"]["rounds"][-1]["sampled"] == 1, result["meta"]
    with psycopg.connect(db_url, autocommit=True) as conn:
        space_id = _space_id(conn, space)
        query = f"l2_normalize('{vector.tolist()}'::vector)::halfvec({dims})"
        sample, order = conn.execute(
            "SELECT api.sample_predicate(), api.ann_order_sql('v', %s, %s)", (query, dims)
        ).fetchone()
        # the collection's part of the sample's index (the index is on the partitioned table)
        (index,) = conn.execute(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            " JOIN pg_index x ON x.indexrelid = c.oid"
            " WHERE i.inhparent = ('rag.' || api.sample_index(%s))::regclass"
            " AND x.indrelid = ('rag.' || api.vector_partition(%s, api.collection_id('default')))"
            "::regclass",
            (space_id, space_id),
        ).fetchone()
        conn.execute("SET enable_seqscan = off")
        explained = conn.execute(
            f"EXPLAIN SELECT v.chunk_pk FROM rag.vectors_{space_id} v"
            " WHERE v.collection_id = api.collection_id('default')"
            f" AND v.{sample} ORDER BY {order}"
        )
        plan = "\n".join(row[0] for row in explained)
    assert f"Index Scan using {index}" in plan, plan


def _sampled_vector(db_url: str) -> np.ndarray:
    """The probe vector of the corpus's own sampled chunk (the walk returns it)."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        register_vector(conn)
        table = f"rag.vectors_{_space_id(conn, SPACE)}"
        row = conn.execute(
            f"SELECT v.embedding FROM {table} v WHERE v.chunk_pk %% 100 = 0 "
            "AND v.chunk_pk <> %s ORDER BY v.chunk_pk LIMIT 1",
            (HIDDEN,),
        ).fetchone()
    assert row is not None
    return np.asarray(row[0].to_numpy(), dtype=np.float64)


def _space_id(conn: psycopg.Connection, name: str) -> int:
    return int(conn.execute("SELECT id FROM rag.spaces WHERE name = %s", (name,)).fetchone()[0])


def test_what_the_walk_returned_in_every_round_counts_as_read(
    db_url: str, corpus: np.ndarray
) -> None:
    # a region budget of one chunk: the search reads deeper round after round; the
    # sampled chunk nearest the query came in the first (the hidden one, which no walk
    # returns, filtered out)
    with psycopg.connect(db_url, autocommit=True) as conn:
        deeper = {**THRESHOLD, "region_budget": 1, "region_ratio": 0}
        result = call_topk(conn, {SPACE: _sampled_vector(db_url)}, {SPACE: 1.0},
                           (0.5, 0.3, 0.2), 5, filters=CORPUS_ONLY, options=deeper)  # fmt: skip
    meta = result["meta"]
    assert len(meta["rounds"]) > 1 and not meta["fell_back"], meta
    assert meta["rounds"][-1]["sampled_beyond_bound"] == 0


def test_a_bound_that_only_min_similarity_relies_on_is_checked(
    db_url: str, corpus: np.ndarray
) -> None:
    # no similarity weight: the walk's bound says which chunks min_similarity excludes
    with psycopg.connect(db_url, autocommit=True) as conn:
        result = call_topk(conn, {SPACE: corpus}, {SPACE: 1.0}, (0.0, 1.0, 0.0), 5,
                           options={**THRESHOLD, "min_similarity": 0.9})  # fmt: skip
    assert [r["chunk_id"] for r in result["rows"]] == ["hidden-0"], result["meta"]
    assert result["meta"]["fell_back"]


def test_an_index_of_an_earlier_sample_is_replaced(db_url: str) -> None:
    """The first sample's index (1 in 1,000, named vectors_N_sample) after an upgrade."""
    register_spaces(db_url, {"older": 8})
    with psycopg.connect(db_url, autocommit=True) as conn:
        space = _space_id(conn, "older")
        (current,) = conn.execute("SELECT api.sample_index(%s)", (space,)).fetchone()
        conn.execute(f"DROP INDEX rag.{current}")
        conn.execute(f"CREATE INDEX vectors_{space}_sample ON rag.vectors_{space} "
                     "(collection_id) WHERE chunk_pk % 1000 = 0")  # fmt: skip
        conn.execute("SELECT api.ensure_sample_indexes()")
        names = [row[0] for row in conn.execute(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE i.indrelid = %s::regclass AND c.relname LIKE '%%sample%%'",
            (f"rag.vectors_{space}",))]  # fmt: skip
    assert names == [current]


def test_a_reembedded_space_keeps_its_sample_index(db_url: str) -> None:
    register_spaces(db_url, {"moved": 8})
    with psycopg.connect(db_url, autocommit=True) as conn:
        space = _space_id(conn, "moved")
        conn.execute("SELECT api.create_shadow_vectors(%s, 12)", (space,))
        conn.execute("SELECT api.index_shadow_vectors(%s, 12)", (space,))
        conn.execute("SELECT api.switch_to_shadow(%s, 12, '{}', 'm12')", (space,))
        index = conn.execute("SELECT to_regclass('rag.' || api.sample_index(%s))::text",
                             (space,)).fetchone()[0]  # fmt: skip
        table = conn.execute("SELECT indrelid::regclass::text FROM pg_index "
                             "WHERE indexrelid = %s::regclass", (index,)).fetchone()[0]  # fmt: skip
    assert index is not None and table == f"rag.vectors_{space}"


@pytest.mark.parametrize(("ef_search", "again"), [(100, 400), (300, 1000), (1000, None)])
def test_a_walk_proved_wrong_is_walked_again_wider_before_the_scan(
    db_url: str, corpus: np.ndarray, ef_search: int, again: int | None
) -> None:
    """A walk routed into the wrong part of the graph mostly finds its way with a longer
    candidate list: the search walks once more at 4x ef_search (up to 1,000) before it
    scans; the hidden chunk, in no graph, is not found that way either."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        result = call_topk(conn, {SPACE: corpus}, {SPACE: 1.0}, (1.0, 0.0, 0.0), 5,
                           options={**THRESHOLD, "ef_search": ef_search})  # fmt: skip
    meta = result["meta"]
    assert meta["fell_back"] and result["rows"][0]["chunk_id"] == "hidden-0", meta
    walks = [r for r in meta["rounds"] if "sampled" in r]
    if again is None:
        assert "walked again" not in meta["strategy_reason"] and len(walks) == 1, meta
    else:
        assert f"walked again at ef_search {again}" in meta["strategy_reason"], meta
        assert len(walks) == 2 and all(w["sampled_beyond_bound"] == 1 for w in walks), meta
