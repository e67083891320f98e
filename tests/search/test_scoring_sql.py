"""The recency formulas the search computes (api.recency), and their inverse (which turns
a score bound into a created_at range), agree with each other and with the documented ones
(docs/api/search-request.md)."""

from __future__ import annotations

import math

import numpy as np
import psycopg
import pytest

from app.recency import MAX_HALVINGS, RECENCY_FUNCTIONS
from app.settings import Settings
from helpers import recency

# every decay of the registry, at three scales
FUNCTIONS = [(name, scale) for name in RECENCY_FUNCTIONS for scale in (1.0, 7.0, 200.0)]
AGES = [0.0, 0.01, 0.5, 1.0, 3.7, 30.0, 89.9, 365.0, 399.0, 401.0, 1095.0]


@pytest.fixture(scope="module")
def conn(db_url):
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


def sql_recency(conn, function: str, scale: float, days: float) -> float:
    (value,) = conn.execute(
        "SELECT api.recency(%s, %s, %s, to_timestamp(0))", (function, scale, days * 86400.0)
    ).fetchone()
    return float(value)


@pytest.mark.parametrize(("function", "scale"), FUNCTIONS)
def test_recency_formula_matches_the_documented_one(conn, function, scale):
    for days in AGES:
        assert sql_recency(conn, function, scale, days) == pytest.approx(
            recency(days, function, scale), abs=1e-12
        )


@pytest.mark.parametrize(("function", "scale"), FUNCTIONS)
def test_max_days_is_the_inverse_of_recency(conn, function, scale):
    for days in AGES:
        value = sql_recency(conn, function, scale, days)
        if value <= 0.5**MAX_HALVINGS:
            continue  # the decay reached its floor: any older age has the same recency
        (limit,) = conn.execute(
            "SELECT api.recency_max_days(%s, %s, %s)", (value, function, scale)
        ).fetchone()
        assert limit == pytest.approx(days, rel=1e-9, abs=1e-9)
        later = sql_recency(conn, function, scale, limit * 1.01 + 0.01)
        assert later < value or math.isclose(later, 0.0)


def test_max_days_edges(conn):
    rows = conn.execute(
        "SELECT api.recency_max_days(0, 'inverse', 1), api.recency_max_days(-1, 'inverse', 1),"
        " api.recency_max_days(1.5, 'gaussian', 3), api.recency_max_days(1, 'exponential', 3)"
    ).fetchone()
    assert rows[0] is None and rows[1] is None  # any age reaches recency >= 0
    assert rows[2] < 0  # no age reaches recency 1.5
    assert rows[3] == 0  # only age 0 has recency 1


@pytest.mark.parametrize(("function", "scale"), FUNCTIONS)
def test_region_boxes_cover_every_chunk_whose_static_score_reaches_sigma(conn, function, scale):
    """A chunk (age, signal) with w_rec*rec + w_sig*sig >= sigma lies in one of the boxes."""
    rng = np.random.default_rng(3)
    now_days = 20_000.0
    ages = np.concatenate([rng.exponential(30, 300), rng.uniform(-2, 1200, 300)])
    signals = np.concatenate([rng.uniform(0, 1, 500), np.ones(50), np.zeros(50)])
    for w_rec, w_sig in [(0.3, 0.2), (0.1, 0.1), (0.6, 0.2), (0.5, 0.0), (0.0, 0.4), (0.33, 0.33)]:
        for sigma in (-0.1, 0.0, 0.05, 0.2, 0.35, 0.5, 0.7):
            (boxes,) = conn.execute(
                "SELECT api.region_boxes(%s, %s, %s, %s, %s, %s)::text[]",
                (sigma, w_rec, w_sig, function, scale, now_days),
            ).fetchone()
            parsed = [_box(text) for text in boxes]
            for age, sig in zip(ages, signals, strict=True):
                stat = w_rec * recency(max(0.0, age), function, scale) + w_sig * sig
                if stat >= sigma:
                    x = now_days - age
                    assert any(x0 <= x <= x1 and y0 <= sig <= y1 for x0, y0, x1, y1 in parsed), (
                        w_rec,
                        w_sig,
                        sigma,
                        age,
                        sig,
                        boxes,
                    )


def _box(text: str) -> tuple[float, float, float, float]:
    (x1, y1), (x0, y0) = [tuple(map(float, p.strip("()").split(","))) for p in text.split("),(")]
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def test_python_names_the_recency_functions_sql_computes(conn):
    (names,) = conn.execute("SELECT api.recency_functions()").fetchone()
    assert tuple(names) == RECENCY_FUNCTIONS


def test_the_engine_defaults_are_the_service_defaults(conn):
    (knobs,) = conn.execute("SELECT api.search_defaults()").fetchone()
    default = {name: field.default for name, field in Settings.model_fields.items()}
    assert knobs["ef_search"] == default["hnsw_ef_search"]
    assert knobs["bm25"] == {"k1": default["bm25_k1"], "b": default["bm25_b"]}
    assert knobs["rrf_k"] == default["rrf_k"]


def test_dropping_a_space_drops_every_function_made_for_it(conn):
    # the per-space functions are generated; a signature that drifts from the one
    # api.drop_space_functions names would leave that function behind
    space_id = conn.execute("SELECT id FROM api.register_space('dropped', 8, '', '', 8, 32)")
    prefix = f"space_{space_id.fetchone()[0]}_"
    made = "SELECT count(*) FROM pg_proc WHERE pronamespace = 'api'::regnamespace AND proname ^@ %s"
    assert conn.execute(made, (prefix,)).fetchone()[0] == 7
    conn.execute("SELECT api.drop_space('dropped')")
    assert conn.execute(made, (prefix,)).fetchone()[0] == 0
