"""A quantized index with a bound of its own: each vector projected onto its collection's
first p principal directions, plus the length of what the projection leaves out.

    python bench/projected_bound.py --n 100000 --dims 384 --queries 100 --projections 128,192,256 \
        --ef-search 100,1000

For an orthonormal p x d matrix P, a unit vector x splits into P x and a residual of
length r_x = sqrt(1 - |P x|^2), and by Cauchy-Schwarz

    q . x  =  Pq . Px + (residual of q) . (residual of x)  <=  Pq . Px + r_q r_x

which is the inner product of two unit vectors of p + 1 dimensions, (Px, r_x) and
(Pq, r_q). So an HNSW index over the augmented vectors (cosine, in halfvec) reads chunks
in decreasing order of an upper bound on their true similarity: re-score each with its
full vector, and stop when the next chunk's bound falls under the k-th best similarity
found. That holds whatever P is (a poor fit reads deeper, never wrongly), and trusts the
graph's order as the halfvec walk over the full vectors does (with
``hnsw.iterative_scan = strict_order`` pgvector drops a chunk a later batch finds nearer
than one already returned, so a walk deeper than ``ef_search`` can pass chunks over). A
binary code gives no such bound (bench/binary_bound.py); this one stores (p + 1) / d of
the dimensions and costs a deeper walk.

First, with no database: how many chunks a perfect index in each order must
read before it may stop, on the synthetic corpus (bench/corpus.py, drawn afresh) and on
SciFact's MiniLM vectors; beside the projections, a coarse quantizer's bound (k-means
lists, each chunk's angle to its centroid: the triangle inequality on the sphere). Then,
on the synthetic corpus in a scratch database of the bench server: each index built with
m 16 and ef_construction 200 (the service's default graph), its size, and at each
``ef_search`` the walk that stops on its bound, against the plain top-10 of the halfvec
index, recall against the float32 order.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psycopg
from pgvector import HalfVector
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.binary_bound import arguments, corpora
from bench.common import percentiles, print_table, server, with_database

K = 10
DATABASE = "projected_bound_bench"
SLACK = 2e-3  # half-precision rounding of both unit vectors, with room to spare
FIT_SAMPLE = 20_000
WALKED = "SELECT * FROM walk(%s, %s, %s, %s, %s)"
Kinds = dict[str, tuple[str, np.ndarray | None]]  # name: (indexed expression, projection)
WALK = """
CREATE FUNCTION walk(q vector, qa halfvec, expr text, k int, slack float8,
                     OUT ids int[], OUT depth int, OUT bounded boolean) LANGUAGE plpgsql AS $$
DECLARE
    r record;
    sims float8[] := '{}';
    s float8;
    worst int;
BEGIN
    ids := '{}';
    depth := 0;
    bounded := false;
    FOR r IN EXECUTE format('SELECT id, embedding, %s <=> $1 AS d FROM vectors'
                            ' ORDER BY %s <=> $1', expr, expr) USING qa LOOP
        bounded := depth >= k AND 1 - r.d + slack < sims[worst];
        EXIT WHEN bounded;  -- else the scan ran out: max_scan_tuples, or the collection
        depth := depth + 1;
        s := 1 - (r.embedding <=> q);
        IF depth <= k THEN
            ids := ids || r.id;
            sims := sims || s;
        ELSIF s > sims[worst] THEN
            ids[worst] := r.id;
            sims[worst] := s;
        END IF;
        IF depth = k OR (depth > k AND sims[worst] = s) THEN
            SELECT i INTO worst FROM generate_subscripts(sims, 1) i ORDER BY sims[i] LIMIT 1;
        END IF;
    END LOOP;
END $$
"""


def basis(vectors: np.ndarray, p: int) -> np.ndarray:
    """The first p principal directions (no centring: the split needs only orthonormal
    rows) of a sample of the collection."""
    _, _, vt = np.linalg.svd(vectors[:FIT_SAMPLE], full_matrices=False)
    return vt[:p]


def augment(vectors: np.ndarray, projection: np.ndarray) -> np.ndarray:
    """(P x, |residual of x|) for each row: unit vectors of p + 1 dimensions."""
    projected = vectors @ projection.T
    residual = np.sqrt(np.clip(1 - (projected * projected).sum(axis=1), 0, None))
    return np.hstack([projected, residual[:, None]]).astype(np.float32)


def kmeans(vectors: np.ndarray, lists: int, rounds: int = 8) -> np.ndarray:
    """The centroids of spherical k-means from random chunks."""
    rng = np.random.default_rng(0)
    centroids = vectors[rng.choice(len(vectors), lists, replace=False)].copy()
    for _ in range(rounds):
        assigned = np.argmax(vectors @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, assigned, vectors)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centroids = np.where(norms > 0, sums / np.maximum(norms, 1e-12), centroids)
    return centroids


class Cones:
    """A coarse quantizer's bound: each chunk's list (its nearest centroid) and its angle
    to it. By the triangle inequality on the sphere the angle between q and x is at least
    |angle(q, c) - angle(x, c)|, so cos of that bounds their similarity."""

    def __init__(self, vectors: np.ndarray, centroids: np.ndarray) -> None:
        self.centroids = centroids
        self.assigned = np.argmax(vectors @ centroids.T, axis=1)
        cosines = np.einsum("nd,nd->n", vectors, centroids[self.assigned])
        self.angle = np.arccos(cosines.clip(-1, 1))

    def bounds(self, q: np.ndarray) -> np.ndarray:
        to_centroid = np.arccos((self.centroids @ q).clip(-1, 1))
        return np.cos(np.abs(to_centroid[self.assigned] - self.angle))


def depths(vectors: np.ndarray, queries: np.ndarray, projections: list[int]) -> list[list[object]]:
    """Per order: the share of the collection whose bound reaches the 10th best similarity
    (what a perfect index in that order reads before it may stop), p50 and p90."""
    thetas = np.array([np.sort(vectors @ q)[-K] for q in queries])
    n = len(vectors)
    rows = [["halfvec (the full vector)", *_shares(_reached(vectors, queries, thetas), n)]]
    for p in projections:
        projection = basis(vectors, p)
        reached = _reached(augment(vectors, projection), augment(queries, projection), thetas)
        rows.append([f"projected {p} + residual", *_shares(reached, n)])
    lists = int(np.sqrt(n))
    cone = Cones(vectors, kmeans(vectors, lists))
    reached = [float((cone.bounds(q) >= t).mean()) for q, t in zip(queries, thetas, strict=True)]
    rows.append([f"k-means, {lists} lists, angle to the centroid", *_shares(reached, n)])
    return rows


def _reached(stored: np.ndarray, asked: np.ndarray, thetas: np.ndarray) -> list[float]:
    """Per query, the share of chunks whose bound (inner product plus rounding) reaches theta."""
    return [float((stored @ a + SLACK >= t).mean()) for a, t in zip(asked, thetas, strict=True)]


def _shares(read: list[float], n: int) -> list[object]:
    p50, p90 = np.quantile(read, [0.5, 0.9])
    return [f"{p50:.4f}", f"{p90:.4f}", f"{p50 * n:,.0f}"]


def load(conn: psycopg.Connection, vectors: np.ndarray, augmented: dict[int, np.ndarray]) -> None:
    columns = "".join(f", p{p} halfvec({p + 1})" for p in augmented)
    dims = vectors.shape[1]
    conn.execute(f"CREATE TABLE vectors (id int PRIMARY KEY, embedding vector({dims}){columns})")
    types = ["int4", "vector"] + ["halfvec"] * len(augmented)
    with conn.cursor().copy("COPY vectors FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(types)
        for i, v in enumerate(vectors):
            copy.write_row([i, v] + [HalfVector(a[i]) for a in augmented.values()])
    conn.execute("VACUUM ANALYZE vectors")


def build(conn: psycopg.Connection, name: str, expr: str, n: int) -> tuple[float, float]:
    """Seconds to build the HNSW index over expr, and its bytes per chunk."""
    started = time.perf_counter()
    conn.execute(f"CREATE INDEX {name} ON vectors USING hnsw (({expr}) halfvec_cosine_ops)"
                 " WITH (m = 16, ef_construction = 200)")  # fmt: skip
    seconds = time.perf_counter() - started
    (size,) = conn.execute(f"SELECT pg_relation_size('{name}')").fetchone()
    return seconds, size / n


@dataclass
class Walked:
    times: list[float] = field(default_factory=list)  # ms
    read: list[int] = field(default_factory=list)
    recalls: list[float] = field(default_factory=list)
    bounded: int = 0  # walks that stopped on their bound, not on the scan's end

    def row(self, name: str, plain_p50: float) -> list[object]:
        p50, p95, p99 = percentiles(self.times)
        missed = sum(r < 1 for r in self.recalls)
        return [name, p50, p95, p99, f"{p50 / plain_p50:.2f}x", f"{np.median(self.read):.0f}",
                f"{self.bounded}/{len(self.times)}", f"{np.mean(self.recalls):.3f}",
                missed]  # fmt: skip


def walks(conn: psycopg.Connection, expr: str, queries: list[tuple[np.ndarray, HalfVector]],
          truths: list[set[int]], plain: bool = False) -> Walked:  # fmt: skip
    """The walk over expr's index to its bound (or, plain, its top-10 alone) per query."""
    walked = Walked()
    top = f"SELECT id, {K}, false FROM vectors ORDER BY {expr} <=> %s LIMIT {K}"
    for (q, qa), truth in zip(queries, truths, strict=True):
        started = time.perf_counter()
        if plain:
            ids = [r[0] for r in conn.execute(top, (qa,), prepare=True)]
            depth, bounded = K, False
        else:
            args = (q, qa, expr, K, SLACK)
            ids, depth, bounded = conn.execute(WALKED, args, prepare=True).fetchone()
        walked.times.append((time.perf_counter() - started) * 1000)
        walked.read.append(depth)
        walked.recalls.append(len(set(ids) & truth) / K)
        walked.bounded += bounded
    return walked


def measure_in_database(vectors: np.ndarray, queries: np.ndarray, projections: list[int],
                        ef_searches: list[int]) -> None:  # fmt: skip
    truths = [set(np.argsort(-(vectors @ q), kind="stable")[:K].tolist()) for q in queries]
    with server() as admin:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{DATABASE}"')
        try:
            with psycopg.connect(with_database(admin, DATABASE), autocommit=True) as conn:
                kinds = _build(conn, vectors, {p: basis(vectors, p) for p in projections})
                for ef_search in ef_searches:
                    _walk_all(conn, kinds, queries, truths, ef_search)
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


def _build(conn: psycopg.Connection, vectors: np.ndarray,
           fitted: dict[int, np.ndarray]) -> Kinds:  # fmt: skip
    """Load the vectors and build every index; print their build times and sizes. Returns
    each index's expression and projection (None: the full vector)."""
    n, dims = vectors.shape
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    register_vector(conn)
    print(f"loading {n:,} vectors", file=sys.stderr)
    load(conn, vectors, {p: augment(vectors, b) for p, b in fitted.items()})
    conn.execute("SET maintenance_work_mem = '4GB'")
    conn.execute("SET max_parallel_maintenance_workers = 1")  # as ingest does
    kinds: Kinds = {"halfvec": (f"embedding::halfvec({dims})", None)}
    kinds |= {f"projected {p}": (f"p{p}", b) for p, b in fitted.items()}
    built = []
    for i, (name, (expr, _)) in enumerate(kinds.items()):
        print(f"building the {name} index", file=sys.stderr)
        built.append((name, *build(conn, f"index_{i}", expr, n)))
    rows: list[list[object]] = []
    base = built[0][1:]
    for name, seconds, per_chunk in built:
        rows.append([name, seconds, f"{seconds / base[0]:.2f}x", f"{per_chunk:,.0f}",
                     f"{per_chunk / base[1]:.2f}x"])  # fmt: skip
    print(f"\n### in PostgreSQL: {n:,} x {dims}, m 16, ef_construction 200, "
          f"{time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["index", "build s", "vs halfvec", "bytes/chunk", "vs halfvec"], rows)
    conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
    conn.execute("SELECT pg_prewarm(c.oid) FROM pg_class c WHERE c.relname ~ '^(vectors|index_)'")
    conn.execute(WALK)
    conn.execute("SET enable_seqscan = off")  # no LIMIT: the planner would sort a scan
    conn.execute("SET hnsw.iterative_scan = strict_order")
    return kinds


def _walk_all(conn: psycopg.Connection, kinds: Kinds,
              queries: np.ndarray, truths: list[set[int]], ef_search: int) -> None:  # fmt: skip
    conn.execute(f"SET hnsw.ef_search = {ef_search}")
    full = [(q, HalfVector(q)) for q in queries]
    walks(conn, kinds["halfvec"][0], full[:5], truths[:5], plain=True)  # warm-up
    plain = walks(conn, kinds["halfvec"][0], full, truths, plain=True)
    plain_p50 = percentiles(plain.times)[0]
    rows = [plain.row("halfvec, plain top-10 (no bound)", plain_p50)]
    for name, (expr, projection) in kinds.items():
        asked = queries if projection is None else augment(queries, projection)
        pairs = [(q, HalfVector(a)) for q, a in zip(queries, asked, strict=True)]
        walks(conn, expr, pairs[:5], truths[:5])  # warm-up
        rows.append(walks(conn, expr, pairs, truths).row(f"{name}, walk to its bound", plain_p50))
    print(f"\n### walks, {len(queries)} queries, ef_search {ef_search}, strict order")
    print_table(["index", "p50 ms", "p95 ms", "p99 ms", "p50 vs plain", "chunks read p50",
                 "stopped on the bound", "recall@10", "queries missing a row"], rows)  # fmt: skip


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--projections", default="128,192,256")
    parser.add_argument("--ef-search", default="100,1000", help="hnsw.ef_search of the walks")
    parser.add_argument("--no-database", action="store_true", help="the first table only")
    args = parser.parse_args()
    projections = [int(p) for p in args.projections.split(",")]
    headers = ["order (index)", "share read p50", "share read p90", "chunks read p50"]
    found = list(corpora(args))
    for name, vectors, queries in found:
        print(f"\n### a perfect index: {name}, {len(queries)} queries")
        print_table(headers, depths(vectors, queries, projections))
    if not args.no_database:
        _, synthetic, queries = found[0]
        ef_searches = [int(e) for e in args.ef_search.split(",")]
        measure_in_database(synthetic, queries, projections, ef_searches)


if __name__ == "__main__":
    main()
