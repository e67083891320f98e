"""The Hamming bound of bench/binary_bound.py: no unit vector at a Hamming distance of at
least h from the query's sign bits has a higher cosine similarity, and some come as close
to it as one likes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.binary_bound import hamming_bound

pytestmark = pytest.mark.unit
DIMS = 64


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def test_no_vector_beats_the_bound_at_its_distance() -> None:
    rng = np.random.default_rng(7)
    for _ in range(2_000):
        q = rng.standard_normal(DIMS)
        # vectors near q, far from it, and in between: every Hamming distance is met
        x = _unit(q * rng.uniform(-1, 1) + rng.standard_normal(DIMS) * rng.uniform(0.01, 3))
        h = int(((x > 0) != (q > 0)).sum())
        assert float(_unit(q) @ x) <= hamming_bound(q, h) + 1e-12


def test_the_bound_is_approached() -> None:
    rng = np.random.default_rng(8)
    q = rng.standard_normal(DIMS)
    for h in (0, 1, 10, 32, 63):
        largest = np.argsort(-(q * q))[: DIMS - h]
        rest = np.setdiff1d(np.arange(DIMS), largest)
        x = np.zeros(DIMS)
        x[largest] = q[largest]  # along q's largest coordinates
        x[rest] = -np.sign(q[rest]) * 1e-9  # the others barely there, of the other sign
        x = _unit(x)
        assert int(((x > 0) != (q > 0)).sum()) == h
        assert float(_unit(q) @ x) == pytest.approx(hamming_bound(q, h), abs=1e-6)
    assert hamming_bound(q, DIMS) == 0.0
