"""The recency formulas the search writes into its statements, and their inverse
(which turns a score bound into a created_at range), agree with each other."""

from __future__ import annotations

import math

import psycopg
import pytest

from helpers import recency

FUNCTIONS = [("inverse", 1.0), ("inverse", 7.0), ("exponential", 30.0), ("gaussian", 90.0),
             ("linear", 200.0)]  # fmt: skip
AGES = [0.0, 0.01, 0.5, 1.0, 3.7, 30.0, 89.9, 365.0, 399.0, 401.0, 1095.0]


@pytest.fixture(scope="module")
def conn(db_url):
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


def sql_recency(conn, function: str, scale: float, days: float) -> float:
    expression = conn.execute("SELECT api.recency_sql(%s, %s, %s)", (function, scale, str(days)))
    (value,) = conn.execute(f"SELECT {expression.fetchone()[0]}").fetchone()
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
        if value <= 0:
            continue  # linear decay reached 0: any older age has the same recency
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
