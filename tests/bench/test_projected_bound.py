"""The bounds of bench/projected_bound.py: the augmented vectors are unit vectors whose
inner product is never below the true similarity, whatever orthonormal projection they
come from; the coarse quantizer's cone bound holds too; and the PL/pgSQL walk, given the
exact order of its bound, stops on that bound with the true top-k."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import psycopg
import pytest
from pgvector import HalfVector
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.projected_bound import SLACK, WALK, Cones, augment, basis, kmeans, load

DIMS = 48


def _units(rng: np.random.Generator, count: int, scales: np.ndarray | None = None) -> np.ndarray:
    v = rng.standard_normal((count, DIMS)) * (1 if scales is None else scales)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _orthonormal(rng: np.random.Generator, p: int) -> np.ndarray:
    q, _ = np.linalg.qr(rng.standard_normal((DIMS, p)))
    return q.T


@pytest.mark.unit
@pytest.mark.parametrize("p", [1, 8, 24, 47])
def test_the_augmented_product_bounds_the_similarity(p: int) -> None:
    rng = np.random.default_rng(p)
    vectors, queries = _units(rng, 500), _units(rng, 40)
    for projection in (_orthonormal(rng, p), basis(vectors, p)):
        stored, asked = augment(vectors, projection), augment(queries, projection)
        np.testing.assert_allclose(np.linalg.norm(stored, axis=1), 1, atol=1e-6)
        assert (asked @ stored.T >= queries @ vectors.T - 1e-6).all()


@pytest.mark.unit
def test_nothing_left_out_gives_the_similarity_itself() -> None:
    rng = np.random.default_rng(0)
    vectors, queries = _units(rng, 200), _units(rng, 20)
    full = _orthonormal(rng, DIMS)
    bound = augment(queries, full) @ augment(vectors, full).T
    np.testing.assert_allclose(bound, queries @ vectors.T, atol=1e-6)


@pytest.mark.unit
def test_the_fitted_basis_keeps_what_the_best_subspace_keeps() -> None:
    rng = np.random.default_rng(1)
    # variance falling along the axes: the first 8 axes are the best 8-dimensional subspace
    vectors = _units(rng, 2_000, scales=np.geomspace(4, 0.1, DIMS))

    def kept(projection: np.ndarray) -> float:
        return float(np.mean(np.sum((vectors @ projection.T) ** 2, axis=1)))

    best = kept(np.eye(DIMS)[:8])
    assert kept(basis(vectors, 8)) == pytest.approx(best, abs=0.01)
    assert kept(_orthonormal(rng, 8)) < best - 0.3


@pytest.mark.unit
def test_the_cone_bound_holds() -> None:
    rng = np.random.default_rng(2)
    vectors, queries = _units(rng, 1_000, scales=np.geomspace(3, 0.3, DIMS)), _units(rng, 30)
    cones = Cones(vectors, kmeans(vectors, 16))
    assert len(set(cones.assigned.tolist())) > 1
    for q in queries:
        assert (cones.bounds(q) >= vectors @ q - 1e-9).all()


def _walk(conn: psycopg.Connection, q: np.ndarray, qa: np.ndarray, k: int) -> tuple:  # type: ignore[type-arg]
    return conn.execute(
        "SELECT * FROM walk(%s, %s, 'p24', %s, %s)", (q, HalfVector(qa), k, SLACK)
    ).fetchone()


def test_the_walk_stops_on_its_bound_with_the_true_top_k(db_url: str) -> None:
    rng = np.random.default_rng(3)
    vectors = _units(rng, 600, scales=np.geomspace(3, 0.3, DIMS)).astype(np.float32)
    projection = basis(vectors, 24)
    stored = augment(vectors, projection)
    with psycopg.connect(db_url, autocommit=True) as conn:
        register_vector(conn)
        load(conn, vectors, {24: stored})
        conn.execute(WALK)  # no index: the walk reads its bound's exact order (a sort)
        for q in _units(rng, 10):
            sims = vectors @ q.astype(np.float32)
            best = set(np.argsort(-sims)[:10].tolist())
            bounds = stored @ augment(q[None, :], projection)[0]
            ids, depth, bounded = _walk(conn, q, augment(q[None, :], projection)[0], 10)
            assert set(ids) == best and bounded
            theta = np.sort(sims)[-10]
            # every chunk whose bound reaches the 10th best was read; the walk stopped early
            assert (bounds >= theta).sum() <= depth < len(vectors)
        # fewer chunks than k: the scan runs out before any bound
        ids, depth, bounded = _walk(conn, q, augment(q[None, :], projection)[0], 1_000)
        assert len(ids) == depth == len(vectors) and not bounded
