"""The ranking function returns exactly the top-k of the score over every chunk that
passes the filters, checked against a brute-force computation in Python."""

from __future__ import annotations

import itertools
from datetime import timedelta

import numpy as np
import psycopg
import pytest
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

from app.recency import RECENCY_FUNCTIONS
from helpers import (
    AS_OF,
    assert_exact_topk,
    brute_force,
    call_topk,
    passes,
    random_corpus,
    recency,
    register_spaces,
    store_corpus,
)

SPACES = {"prose": 24, "code": 12}
WEIGHT_MIXES = [
    (1.0, 0.0, 0.0), (0.8, 0.1, 0.1), (0.5, 0.3, 0.2), (0.2, 0.6, 0.2), (0.0, 1.0, 0.0),
    (0.0, 0.0, 1.0), (0.34, 0.33, 0.33), (0.0, 0.5, 0.5), (0.1, 0.9, 0.0),
]  # fmt: skip
# every decay of the registry, at a short and a long scale
RECENCY = [(name, scale) for name in RECENCY_FUNCTIONS for scale in (1.0, 90.0)]
# "threshold": over the HNSW indexes, whose answers are exact for a few thousand rows at
# ef_search 1000, so the rows must be exactly brute force's.
# "threshold-exact-streams": the same algorithm with the HNSW indexes dropped (inside a
# transaction that is rolled back), so each semantic stream is an exact ordered scan: the
# bounds, the region and the deepening are checked on their own, at the default ef_search.
STRATEGIES = {
    "scan": {"strategy": "scan"},
    "threshold": {"strategy": "threshold", "ef_search": 1000},
    "threshold-exact-streams": {"strategy": "threshold"},
}


@pytest.fixture(scope="module")
def corpus(db_url: str) -> list:
    rng = np.random.default_rng(7)
    register_spaces(db_url, SPACES)
    docs, chunks = random_corpus(rng, "ex", n_docs=60, chunks_per_doc=50, spaces=SPACES)
    store_corpus(db_url, docs)
    return chunks


@pytest.fixture(scope="module")
def conn(db_url: str):
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


def _queries(rng: np.random.Generator, n: int) -> list[dict[str, np.ndarray]]:
    out = []
    for _ in range(n):
        out.append(
            {s: (v := rng.standard_normal(d)) / np.linalg.norm(v) for s, d in SPACES.items()}
        )
    return out


def _filters(chunks: list) -> list[dict]:
    return [
        {},
        {"doc_ids": ["ex-doc-3", "ex-doc-17", "ex-doc-40"]},
        {"src_prefix": "https://ex.example/b/"},
        {"tags_any": ["alpha", "delta"]},
        {
            "created_after": AS_OF - timedelta(days=400),
            "created_before": AS_OF - timedelta(days=30),
        },
        {"tags_any": ["gamma"], "src_prefix": "https://ex.example/c/1"},
    ]


@pytest.fixture(params=list(STRATEGIES))
def strategy(request):
    return request.param


def topk(conn, strategy, *args, options=None, **kwargs):
    options = {**STRATEGIES[strategy], **(options or {})}
    if strategy == "threshold-exact-streams":
        with conn.transaction(force_rollback=True):
            hnsw = "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'vectors_%_hnsw'"
            for (index,) in conn.execute(hnsw).fetchall():
                conn.execute(f"DROP INDEX rag.{index}")
            result = call_topk(conn, *args, options=options, **kwargs)
    else:
        result = call_topk(conn, *args, options=options, **kwargs)
    meta = result["meta"]
    if strategy == "threshold" and meta["strategy"] == "scan":
        # the walk's check found a sampled chunk the HNSW walk passed over (deep walks of
        # a small graph are approximate in their tail: test_walk_check.py); the rows are
        # the scan's
        assert "sampled chunk" in meta["strategy_reason"] and meta["exact"], meta
        return result
    assert meta["strategy"] == options["strategy"], meta
    # exact only when no index order was trusted: a scan, no semantic part, or streams
    # that were exact ordered scans
    trusted = strategy == "threshold" and args[2][0] > 0
    assert meta["exact"] is not trusted, meta
    assert bool(meta["approximate_streams"]) is trusted, meta
    return result


@pytest.mark.parametrize("weights", WEIGHT_MIXES)
def test_every_weight_mix_matches_brute_force(corpus, conn, strategy, weights):
    rng = np.random.default_rng(hash(weights) % 2**32)
    for query in _queries(rng, 3):
        for spaces in (["prose"], ["code"], ["prose", "code"]):
            q = {s: query[s] for s in spaces}
            sw = {s: w for s, w in zip(spaces, rng.dirichlet(np.ones(len(spaces))), strict=True)}
            for k in (1, 10, 50):
                result = topk(conn, strategy, q, sw, weights, k)
                assert_exact_topk(result["rows"], brute_force(corpus, q, sw, weights), k)


@pytest.mark.parametrize("filter_index", range(6))
def test_filters_match_brute_force(corpus, conn, strategy, filter_index):
    filters = _filters(corpus)[filter_index]
    rng = np.random.default_rng(filter_index)
    for weights in WEIGHT_MIXES[:5]:
        query = _queries(rng, 1)[0]
        sw = {"prose": 0.7, "code": 0.3}
        result = topk(conn, strategy, query, sw, weights, 10, filters=filters)
        expected = brute_force(corpus, query, sw, weights, filters=filters)
        assert_exact_topk(result["rows"], expected, 10)


@pytest.mark.parametrize("filter_index", range(6))
def test_filters_match_brute_force_in_one_space(corpus, conn, strategy, filter_index):
    filters = _filters(corpus)[filter_index]
    rng = np.random.default_rng(100 + filter_index)
    for weights in WEIGHT_MIXES[:5]:
        query = {"prose": _queries(rng, 1)[0]["prose"]}
        result = topk(conn, strategy, query, {"prose": 1.0}, weights, 10, filters=filters)
        expected = brute_force(corpus, query, {"prose": 1.0}, weights, filters=filters)
        assert_exact_topk(result["rows"], expected, 10)


@pytest.mark.parametrize("weights", [(0.8, 0.1, 0.1), (0.5, 0.3, 0.2), (0.34, 0.33, 0.33)])
def test_a_bound_that_closes_after_reading_deeper_matches_brute_force(corpus, conn, weights):
    # a shallow first read and a small region budget: the walk is read on (2 x deeper)
    # until the region fits, each round scoring only the chunks it added
    rng = np.random.default_rng(31)
    options = {"ef_search": 20, "region_limit": 40, "region_budget": 0, "region_ratio": 1,
               "max_depth": 3000}  # fmt: skip
    deepened = 0
    for query in _queries(rng, 4):
        q = {"prose": query["prose"]}
        result = topk(conn, "threshold-exact-streams", q, {"prose": 1.0}, weights, 10,
                      options=options)  # fmt: skip
        assert result["meta"]["fell_back"] is False, result["meta"]
        rounds = result["meta"]["rounds"]
        deepened += len(rounds) > 1
        for before, after in itertools.pairwise(rounds):
            assert after["depth"] == 2 * before["depth"]
            assert after["scored"] - before["scored"] <= after["depth"] - before["depth"]
        assert_exact_topk(result["rows"], brute_force(corpus, q, {"prose": 1.0}, weights), 10)
    assert deepened > 0


@pytest.mark.parametrize(("function", "scale"), RECENCY)
def test_recency_functions_match_brute_force(corpus, conn, strategy, function, scale):
    rng = np.random.default_rng(11)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    for weights in [(0.5, 0.5, 0.0), (0.2, 0.6, 0.2), (0.0, 1.0, 0.0)]:
        result = topk(
            conn, strategy, query, {"prose": 1.0}, weights, 20,
            options={"recency": {"function": function, "scale_days": scale}},
        )  # fmt: skip
        expected = brute_force(corpus, query, {"prose": 1.0}, weights, recency_fn=(function, scale))
        assert_exact_topk(result["rows"], expected, 20)


def test_min_score_drops_rows_below_it(corpus, conn, strategy):
    rng = np.random.default_rng(3)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    weights = (0.5, 0.3, 0.2)
    scores = brute_force(corpus, query, {"prose": 1.0}, weights)
    cut = sorted(scores.values(), reverse=True)[6]
    result = topk(conn, strategy, query, {"prose": 1.0}, weights, 50, options={"min_score": cut})
    assert_exact_topk(
        result["rows"], brute_force(corpus, query, {"prose": 1.0}, weights, min_score=cut), 50
    )
    assert len(result["rows"]) == 7


def test_ties_are_broken_by_chunk_id(corpus, conn, strategy):
    # Signal only: many chunks share signal 1.0 exactly, so chunk_id decides.
    query = {"prose": np.ones(SPACES["prose"], dtype=np.float32)}
    result = topk(conn, strategy, query, {"prose": 1.0}, (0.0, 0.0, 1.0), 25)
    tied = sorted(c.chunk_id for c in corpus if c.signal == 1.0)
    assert len(tied) > 25
    assert [row["chunk_id"] for row in result["rows"]] == tied[:25]


def test_chunks_without_a_vector_still_rank_by_recency_and_signal(corpus, conn, strategy):
    # A chunk with no vector in the query space scores 0 for that space, and is eligible.
    no_code = [c for c in corpus if "code" not in c.vectors]
    assert no_code
    query = {"code": np.ones(SPACES["code"], dtype=np.float32)}
    result = topk(conn, strategy, query, {"code": 1.0}, (0.2, 0.4, 0.4), 50)
    returned = {row["chunk_id"] for row in result["rows"]}
    expected = brute_force(corpus, query, {"code": 1.0}, (0.2, 0.4, 0.4))
    assert_exact_topk(result["rows"], expected, 50)
    top = sorted(expected, key=lambda cid: -expected[cid])[:50]
    assert returned & {c.chunk_id for c in no_code} == set(top) & {c.chunk_id for c in no_code}


def test_rows_report_their_components(corpus, conn):
    rng = np.random.default_rng(5)
    query = _queries(rng, 1)[0]
    sw = {"prose": 0.6, "code": 0.4}
    weights = (0.5, 0.3, 0.2)
    rows = call_topk(conn, query, sw, weights, 5)["rows"]
    by_id = {c.chunk_id: c for c in corpus}
    for row in rows:
        chunk = by_id[row["chunk_id"]]
        assert row["score"] == pytest.approx(
            weights[0] * row["sem"] + weights[1] * row["rec"] + weights[2] * row["sig"], abs=1e-9
        )
        days = (AS_OF - chunk.created_at).total_seconds() / 86400
        assert row["days_old"] == pytest.approx(max(0.0, days), abs=1e-6)
        if "prose" in chunk.vectors:
            prose = chunk.vectors["prose"].astype(np.float64)
            q = query["prose"].astype(np.float64)
            cos = prose @ q / np.linalg.norm(prose) / np.linalg.norm(q)
            assert row["cos_dist"] == pytest.approx(1 - cos, abs=1e-5)
            assert row["l2_dist"] == pytest.approx(float(np.linalg.norm(prose - q)), abs=1e-4)


def test_threshold_reads_far_fewer_chunks_than_a_scan(corpus, conn):
    rng = np.random.default_rng(21)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    for weights in [(0.8, 0.1, 0.1), (0.5, 0.3, 0.2), (0.0, 1.0, 0.0)]:
        meta = topk(conn, "threshold-exact-streams", query, {"prose": 1.0}, weights, 10)["meta"]
        assert meta["fell_back"] is False
        assert meta["candidates_scanned"] < len(corpus) / 4, (weights, meta)


def test_a_bound_that_cannot_close_falls_back_to_the_scan_and_says_so(corpus, conn):
    rng = np.random.default_rng(22)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    weights = (0.5, 0.3, 0.2)
    result = call_topk(
        conn, query, {"prose": 1.0}, weights, 10,
        options={"strategy": "threshold", "region_budget": 0, "max_depth": 40, "region_limit": 0},
    )  # fmt: skip
    meta = result["meta"]
    assert meta["strategy"] == "scan" and meta["fell_back"] is True and meta["exact"] is True
    assert_exact_topk(result["rows"], brute_force(corpus, query, {"prose": 1.0}, weights), 10)


@pytest.mark.parametrize(
    ("weights", "seeded"),
    [((0.8, 0.1, 0.1), False), ((0.5, 0.3, 0.2), True), ((0.2, 0.6, 0.2), True)],
)
def test_seeds_are_read_only_where_recency_and_signal_can_lead(corpus, conn, weights, seeded):
    # the first round scores the walk, and the seeds where w_rec + w_sig >= w_cos / 2
    rng = np.random.default_rng(25)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    result = topk(conn, "threshold", query, {"prose": 1.0}, weights, 10)
    first = result["meta"]["rounds"][0]
    assert (first["scored"] > first["depth"]) is seeded, first
    assert_exact_topk(result["rows"], brute_force(corpus, query, {"prose": 1.0}, weights), 10)


def test_a_search_leaves_no_walk_open_in_the_transaction(corpus, conn):
    # the walk is a cursor read on round after round: closed whether the bound closed
    # after reading deeper or the search fell back to the scan
    rng = np.random.default_rng(24)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    deeper = {"strategy": "threshold", "ef_search": 20, "region_budget": 0, "region_ratio": 1}
    hopeless = {"strategy": "threshold", "region_budget": 0, "max_depth": 40, "region_limit": 0}
    with conn.transaction(force_rollback=True):
        read_on = call_topk(conn, query, {"prose": 1.0}, (0.5, 0.3, 0.2), 10, options=deeper)
        fell_back = call_topk(conn, query, {"prose": 1.0}, (0.5, 0.3, 0.2), 10, options=hopeless)
        walks = conn.execute("SELECT count(*) FROM pg_cursors WHERE name <> ''").fetchone()[0]
    assert len(read_on["meta"]["rounds"]) > 1 and fell_back["meta"]["fell_back"] is True
    assert walks == 0


def test_region_legs_count_what_signal_or_recency_alone_puts_in_the_region(corpus, conn):
    # a lower bound on the region {w_rec * rec + w_sig * sig >= sigma}: the larger of its
    # two legs, counted up to the limit; none under a filter
    register_vector(conn)
    plan = (
        "SELECT api.search_plan(ARRAY[%s]::vector[], ARRAY['prose'], ARRAY[1.0]::float8[], 10,"
        " 0.5, 0.3, 0.2, %s, %s, 0, NULL, 'default')"
    )
    rng = np.random.default_rng(27)
    query = Vector(_queries(rng, 1)[0]["prose"])
    options = Jsonb({"as_of": AS_OF.isoformat()})
    (p,) = conn.execute(plan, (query, Jsonb({}), options)).fetchone()
    (filtered,) = conn.execute(plan, (query, Jsonb({"tags_any": ["eps"]}), options)).fetchone()
    days = [max(0.0, (AS_OF - c.created_at).total_seconds() / 86400) for c in corpus]
    for sigma in (0.05, 0.12, 0.18, 0.25, 0.35):
        by_signal = sum(float(np.float32(c.signal)) >= sigma / 0.2 for c in corpus)
        by_recency = sum(recency(d, "inverse", 1.0) >= sigma / 0.3 for d in days)
        legs = max(by_signal, by_recency)
        for limit in (len(corpus) + 1, 7):
            (got,) = conn.execute(
                "SELECT api.region_legs(%s, %s, %s)", (p, sigma, limit)
            ).fetchone()
            assert got == min(legs, limit), (sigma, limit, by_signal, by_recency)
        assert (
            conn.execute("SELECT api.region_legs(%s, %s, 100)", (filtered, sigma)).fetchone()[0]
            == 0
        )


def test_a_region_past_the_budget_in_its_legs_is_not_read(corpus, conn):
    # the search reads deeper at once, and its rows are still the exact top-k (exact
    # streams: at this ef_search the HNSW order itself would miss rows)
    rng = np.random.default_rng(28)
    weights = (0.2, 0.2, 0.6)  # signal leads: its leg holds many chunks
    tight = {"ef_search": 20, "region_budget": 0, "region_ratio": 1}
    for query in _queries(rng, 3):
        q = {"prose": query["prose"]}
        result = topk(
            conn, "threshold-exact-streams", q, {"prose": 1.0}, weights, 10, options=tight
        )
        rounds = result["meta"]["rounds"]
        # the budget: region_ratio x depth
        skipped = [r for r in rounds if r["legs"] is not None and r["legs"] > r["depth"]]
        assert skipped and all(r["region"] == r["legs"] for r in skipped), rounds
        assert_exact_topk(result["rows"], brute_force(corpus, q, {"prose": 1.0}, weights), 10)


def test_each_round_gives_the_time_of_its_phases(corpus, conn):
    # seeds (first round), walk, score and region: within the time since the search
    # began, which each round gives
    rng = np.random.default_rng(26)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    deeper = {"ef_search": 20, "region_budget": 0, "region_ratio": 1}
    result = topk(conn, "threshold", query, {"prose": 1.0}, (0.5, 0.3, 0.2), 10, options=deeper)
    rounds = result["meta"]["rounds"]
    assert len(rounds) > 1
    phases = ["walk_ms", "score_ms", "region_ms"]
    assert "seeds_ms" in rounds[0] and all("seeds_ms" not in r for r in rounds[1:])
    spent, counted = 0.0, 0
    for r in rounds:
        timed = [r[name] for name in [*phases, "seeds_ms"] if name in r]
        spent, counted = spent + sum(timed), counted + len(timed)
        assert all(r[name] >= 0 for name in phases), r
        assert spent <= r["ms"] + 0.001 * counted, rounds  # each rounded to the µs


def test_exact_option_forces_the_scan(corpus, conn):
    rng = np.random.default_rng(23)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    result = call_topk(conn, query, {"prose": 1.0}, (0.8, 0.1, 0.1), 10, options={"exact": True})
    assert result["meta"]["strategy"] == "scan"
    assert result["meta"]["candidates_scanned"] == len(corpus)


@pytest.mark.parametrize(
    "filters",
    [{"tags_any": ["gamma"]}, {"tags_all": ["beta"]}, {"tags_any": ["gamma", "delta"]},
     {"tags_any": ["gamma"], "src_prefix": "https://ex.example/c/1"},
     {"tags_any": ["no-such-tag"]}],
)  # fmt: skip
def test_a_filtered_scan_counts_exactly_the_chunks_that_pass(corpus, conn, filters):
    # one tag alone is read from the tag counts, any other filter counted
    query = {"prose": _queries(np.random.default_rng(29), 1)[0]["prose"]}
    result = call_topk(conn, query, {"prose": 1.0}, (0.5, 0.3, 0.2), 10, filters=filters,
                       options={"exact": True})  # fmt: skip
    assert result["meta"]["candidates_scanned"] == sum(passes(c, filters) for c in corpus)
    expected = brute_force(corpus, query, {"prose": 1.0}, (0.5, 0.3, 0.2), filters=filters)
    assert_exact_topk(result["rows"], expected, 10)


PARALLEL_MADE_CHEAP = (
    "parallel_setup_cost = 0", "parallel_tuple_cost = 0",
    "min_parallel_table_scan_size = '64kB'", "max_parallel_workers_per_gather = 2",
)  # fmt: skip


def _workers_launched(conn: psycopg.Connection) -> int:
    conn.execute("SELECT pg_stat_clear_snapshot()")
    (launched,) = conn.execute(
        "SELECT parallel_workers_launched FROM pg_stat_database WHERE datname = current_database()"
    ).fetchone()
    return int(launched)


def test_the_exact_scan_runs_in_parallel_workers(corpus, db_url):
    # One parallel-unsafe function in the scan's statement keeps it in one process. Here
    # parallelism is made cheap, and only the corpus's own tables are large enough for it.
    rng = np.random.default_rng(24)
    query = {"prose": _queries(rng, 1)[0]["prose"]}
    with psycopg.connect(db_url, autocommit=True) as own:
        for setting in PARALLEL_MADE_CHEAP:
            own.execute(f"SET {setting}")
        before = _workers_launched(own)
        result = call_topk(own, query, {"prose": 1.0}, (0.5, 0.3, 0.2), 10, options={"exact": True})
        own.execute("SELECT pg_stat_force_next_flush()")
        own.execute("SELECT 1")  # the transaction end that flushes
        after = _workers_launched(own)
    assert result["meta"]["strategy"] == "scan"
    assert after > before
    expected = brute_force(corpus, query, {"prose": 1.0}, (0.5, 0.3, 0.2))
    assert_exact_topk(result["rows"], expected, 10)


def test_auto_strategy_scans_when_the_filters_leave_few_chunks(corpus, conn):
    conn.execute("ANALYZE rag.chunks")
    query = {"prose": np.ones(SPACES["prose"], dtype=np.float32)}
    one_doc = {"doc_ids": ["ex-doc-5"]}  # 50 chunks, which the planner estimates well
    weights = (0.5, 0.3, 0.2)
    few = call_topk(conn, query, {"prose": 1.0}, weights, 10, filters=one_doc,
                    options={"scan_rows": 500})  # fmt: skip
    many = call_topk(conn, query, {"prose": 1.0}, weights, 10, filters=one_doc,
                     options={"scan_rows": 5, "walk_cost": 0})  # fmt: skip
    unfiltered = call_topk(conn, query, {"prose": 1.0}, weights, 10, options={"scan_rows": 500})
    assert few["meta"]["strategy"] == "scan"
    assert many["meta"]["strategy"] == "threshold"
    assert unfiltered["meta"]["strategy"] == "threshold"  # 3,000 chunks > 500
    expected = brute_force(corpus, query, {"prose": 1.0}, weights, filters=one_doc)
    assert_exact_topk(few["rows"], expected, 10)
    assert_exact_topk(many["rows"], expected, 10)


def test_auto_strategy_scans_a_filter_whose_index_walk_would_cost_more(corpus, conn):
    # 100 of 3,000 chunks pass; at ef_search 10 a walk reads about 10 x 3,000 / 100 = 300
    # vectors: scanned when 100^2 <= walk_cost x 10 x 3,000
    query = {"prose": np.ones(SPACES["prose"], dtype=np.float32)}
    two_docs = {"doc_ids": ["ex-doc-5", "ex-doc-6"]}
    weights = (0.5, 0.3, 0.2)
    chosen = {}
    for walk_cost in (1.0, 0.1):
        options = {"scan_rows": 5, "ef_search": 10, "walk_cost": walk_cost}
        result = call_topk(conn, query, {"prose": 1.0}, weights, 10, filters=two_docs,
                           options=options)  # fmt: skip
        chosen[walk_cost] = result
    expected = brute_force(corpus, query, {"prose": 1.0}, weights, filters=two_docs)
    assert_exact_topk(chosen[1.0]["rows"], expected, 10)
    chosen = {cost: result["meta"] for cost, result in chosen.items()}
    assert chosen[1.0]["strategy"] == "scan"
    assert "costs less than walking the index" in chosen[1.0]["strategy_reason"]
    assert chosen[1.0]["filtered_rows"] == 100
    assert chosen[0.1]["strategy"] == "threshold"


def _hard_vectors(rng: np.random.Generator, dims: int) -> np.ndarray:
    """Vectors whose half-precision rounding errs the most: components at a rounding
    midpoint, subnormal ones, a few large ones among many tiny ones."""
    gaussian = rng.standard_normal((40, dims))
    midpoints = (1 + 2.0**-11 * (1 - 1e-3)) * rng.choice([-1, 1], (40, dims))
    mantissas = np.ldexp(1 + (2 * rng.integers(0, 1024, (40, dims)) + 1) * 2.0**-11, -7)
    tiny = rng.standard_normal((40, dims)) * 1e-6
    tiny[:, :3] = rng.standard_normal((40, 3))
    return np.concatenate([gaussian, midpoints, mantissas * rng.choice([-1, 1], (40, dims)), tiny])


def _literals(vectors: np.ndarray) -> list[str]:
    return ["[" + ",".join(repr(float(c)) for c in v.astype(np.float32)) + "]" for v in vectors]


@pytest.mark.parametrize("dims", [24, 384, 1536])
def test_the_index_distance_is_within_the_bound_of_the_exact_one(conn, dims):
    # the threshold bound adds api.ann_distance_error to the similarity the HNSW order
    # (half precision) promises: it must cover every rounding, at every dimension
    rng = np.random.default_rng(dims)
    x, q = _hard_vectors(rng, dims), _hard_vectors(rng, dims)[rng.permutation(160)]
    worst, bound = conn.execute(
        "SELECT max(abs((l2_normalize(x)::halfvec <=> l2_normalize(q)::halfvec) - (x <=> q))),"
        " api.ann_distance_error(%s)"
        " FROM unnest(%s::text[]::vector[], %s::text[]::vector[]) AS u(x, q)",
        (dims, _literals(x), _literals(q)),
    ).fetchone()
    assert 0 < worst <= bound < 0.002
