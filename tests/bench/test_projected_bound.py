"""The projected bound of bench/projected_bound.py: the augmented vectors are unit
vectors whose inner product is never below the true similarity, whatever orthonormal
projection they come from, and equals it where nothing is left out."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.projected_bound import augment, basis

pytestmark = pytest.mark.unit
DIMS = 48


def _units(rng: np.random.Generator, count: int) -> np.ndarray:
    v = rng.standard_normal((count, DIMS))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _orthonormal(rng: np.random.Generator, p: int) -> np.ndarray:
    q, _ = np.linalg.qr(rng.standard_normal((DIMS, p)))
    return q.T


@pytest.mark.parametrize("p", [1, 8, 24, 47])
def test_the_augmented_product_bounds_the_similarity(p: int) -> None:
    rng = np.random.default_rng(p)
    vectors, queries = _units(rng, 500), _units(rng, 40)
    for projection in (_orthonormal(rng, p), basis(vectors, p)):
        stored, asked = augment(vectors, projection), augment(queries, projection)
        np.testing.assert_allclose(np.linalg.norm(stored, axis=1), 1, atol=1e-6)
        bound = asked @ stored.T
        assert (bound >= queries @ vectors.T - 1e-6).all()
        if p < DIMS - 1:  # the order by bound is not the order by similarity: re-score
            assert (np.argmax(bound, axis=1) != np.argmax(queries @ vectors.T, axis=1)).any()


def test_nothing_left_out_gives_the_similarity_itself() -> None:
    rng = np.random.default_rng(0)
    vectors, queries = _units(rng, 200), _units(rng, 20)
    full = _orthonormal(rng, DIMS)
    bound = augment(queries, full) @ augment(vectors, full).T
    np.testing.assert_allclose(bound, queries @ vectors.T, atol=1e-6)
