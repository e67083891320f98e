"""A SQL client's bad arguments to api.rag_topk_weighted are refused by name and rule
(NaN is at least 0 in PostgreSQL's ordering of floats, so it is named apart)."""

from __future__ import annotations

import numpy as np
import psycopg
import pytest

from helpers import call_topk, register_spaces

SPACES = {"args": 8}


@pytest.fixture(scope="module")
def conn(db_url: str):
    register_spaces(db_url, SPACES)
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


@pytest.mark.parametrize("weight", [-1.0, float("nan"), float("inf")])
def test_a_space_weight_that_is_not_a_finite_number_at_least_0_is_refused(conn, weight):
    with pytest.raises(psycopg.Error, match="space weights must be finite numbers >= 0"):
        call_topk(conn, {"args": np.ones(8)}, {"args": weight}, (1.0, 0.0, 0.0), 5)


def test_a_finite_space_weight_is_accepted(conn):
    result = call_topk(conn, {"args": np.ones(8)}, {"args": 0.5}, (1.0, 0.0, 0.0), 5)
    assert result["rows"] == [] and result["meta"]["strategy"]
