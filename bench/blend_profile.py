"""Where a blended top-k's time goes: the threshold search's own account of each request,
summed over the queries of each weight mix.

    python bench/blend_profile.py --n 100000 --dims 384 --queries 100

The corpus database of bench/search_bench.py (bench/data, built once by either script) is
reused. For each query and mix, interleaved (in turn first: ``pair_order``): the plain
HNSW top-10 (``ann``, the floor) and ``api.rag_topk_weighted`` (ours, default mode),
whose response meta says where the request's time went: ``timings_ms`` (plan, keywords,
choose, rank, rows inside the database) and, for the threshold search, ``rounds`` (per
round: its depth, the region's boxes and chunks, the chunks scored, and the ms of its
phases: seeds, walk, score, region, and the walk's check against the sample). Printed
per mix: the latencies (p50) and, as means per request in ms, each phase, what the
client spends outside the database's timings (the call, the JSON answer), and the shape
of the work (rounds, depth, region, chunks scored).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb, set_json_loads

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, prewarm, print_table, rotated, server
from bench.corpus import CorpusSpec, query_vectors
from bench.search_bench import MIXES, OURS, Case, K, SqlMethods

# per request, ms: the database's phases (rank split into the threshold search's own)
PHASES = ["plan", "keywords", "choose", "seeds", "walk", "score", "region", "check", "close",
          "rows", "outside"]  # fmt: skip


@dataclass
class Profile:
    weights: tuple[float, float, float]
    ann_ms: list[float] = field(default_factory=list)
    ours_ms: list[float] = field(default_factory=list)
    phases: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in PHASES})
    rounds: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    first_region: list[int] = field(default_factory=list)
    last_region: list[int] = field(default_factory=list)
    scored: list[int] = field(default_factory=list)
    fell_back: int = 0

    def add(self, client_ms: float, meta: dict[str, Any]) -> None:
        self.ours_ms.append(client_ms)
        timings = meta["timings_ms"]
        rounds = meta.get("rounds") or []
        self.fell_back += bool(meta.get("fell_back"))
        split = {p: 0.0 for p in PHASES}
        for name in ("plan", "keywords", "choose", "rows"):
            split[name] = timings.get(name, 0.0)
        for r in rounds:
            for name in ("seeds", "walk", "score", "region", "check"):
                split[name] += r.get(f"{name}_ms", 0.0)
        # what the rank phase spent after its last round: the region's chunks scored,
        # the k best taken (or the scan a search fell back to)
        split["close"] = timings.get("rank", 0.0) - (rounds[-1].get("ms", 0.0) if rounds else 0.0)
        split["outside"] = client_ms - sum(timings.values())
        for name, ms in split.items():
            self.phases[name].append(ms)
        if rounds:
            self.rounds.append(len(rounds))
            self.depth.append(rounds[-1]["depth"])
            self.first_region.append(rounds[0].get("region", 0))
            self.last_region.append(rounds[-1].get("region", 0))
            self.scored.append(rounds[-1].get("scored", 0))


def ours(conn: psycopg.Connection, methods: SqlMethods, weights: tuple[float, float, float],
         q: np.ndarray) -> tuple[float, dict[str, Any]]:  # fmt: skip
    as_of = datetime.fromtimestamp(methods.now, UTC).isoformat()
    options = {"ef_search": methods.ef_search, "as_of": as_of}
    started = time.perf_counter()
    row = conn.execute(
        OURS, ([Vector(q)], K, *weights, Jsonb({}), Jsonb(options), "default"), prepare=True
    ).fetchone()
    return (time.perf_counter() - started) * 1000, row[0]["meta"]


def pair_order(query: int, cases: int) -> list[str]:
    """Which of a case's two searches runs first for the ``query``-th query: the plain ANN
    and ours in turn, flipped once every case has run first (each query starts at the next
    case, ``rotated``), so that each search follows the other's read of the same vector
    (warm) as often as it runs first (after the previous case's searches)."""
    return rotated(["ann", "ours"], query // max(cases, 1))


def run(conn: psycopg.Connection, queries: np.ndarray, ef_search: int,
        mixes: list[tuple[float, float, float]]) -> list[Profile]:  # fmt: skip
    register_vector(conn)
    set_json_loads(orjson.loads, conn)
    methods = SqlMethods(conn, ef_search, queries.shape[1])
    (collection_id,) = conn.execute("SELECT api.collection_id('default')").fetchone()
    profiles = [Profile(w) for w in mixes]
    for q in queries[:5]:  # warm-up, not measured
        for profile in profiles:
            methods.ann(Case("", profile.weights, collection_id=collection_id), q)
            ours(conn, methods, profile.weights, q)
    for i, q in enumerate(queries):
        for profile in rotated(profiles, i):
            case = Case("", profile.weights, collection_id=collection_id)
            for method in pair_order(i, len(profiles)):
                if method == "ann":
                    started = time.perf_counter()
                    methods.ann(case, q)
                    profile.ann_ms.append((time.perf_counter() - started) * 1000)
                else:
                    profile.add(*ours(conn, methods, profile.weights, q))
        print(f"\rquery {i + 1}/{len(queries)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return profiles


def _mean(values: list[float] | list[int]) -> float:
    return float(np.mean(values)) if values else float("nan")


def report(profiles: list[Profile]) -> None:
    rows = []
    for p in profiles:
        ann, mine = float(np.median(p.ann_ms)), float(np.median(p.ours_ms))
        rows.append([f"{p.weights[0]}/{p.weights[1]}/{p.weights[2]}", ann, mine,
                     f"{mine / ann:.2f}x", _mean(p.ours_ms),
                     *[_mean(p.phases[name]) for name in PHASES]])  # fmt: skip
    print("\n### where the time goes (ms; p50 latencies, then means per request)")
    print_table(["weights", "ann p50", "ours p50", "ours / ann", "ours mean", *PHASES], rows)
    shape = []
    for p in profiles:
        more = sum(r > 1 for r in p.rounds)
        shape.append([f"{p.weights[0]}/{p.weights[1]}/{p.weights[2]}", _mean(p.rounds),
                      f"{more}/{len(p.rounds)}", _mean(p.depth),
                      *np.percentile(p.first_region or [0], [50, 95]).tolist(),
                      _mean(p.last_region), _mean(p.scored), p.fell_back])  # fmt: skip
    print("\n### the threshold search's work (means per request unless named)")
    print_table(["weights", "rounds", "deepened", "last depth", "first region p50",
                 "first region p95", "last region", "scored", "fell back"], shape)  # fmt: skip


def arguments(doc: str | None) -> argparse.ArgumentParser:
    """The corpus (as search_bench's), the queries and the searches' ef_search."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--ef-search", type=int, default=100)
    return parser


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--mixes", default=None,
                        help="comma-separated w_cos/w_rec/w_sig, e.g. '0.8/0.1/0.1,0.5/0.3/0.2' "
                             "(default: search_bench's six)")  # fmt: skip
    args = parser.parse_args()
    mixes = MIXES
    if args.mixes:
        mixes = [tuple(float(x) for x in m.split("/")) for m in args.mixes.split(",")]
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries)
    with server() as admin:
        url = corpus_database(admin, spec)
        with psycopg.connect(url, autocommit=True) as conn:
            prewarm(conn)
            print(f"\n{spec.n:,} chunks x {spec.dims} dims, {args.queries} queries, k={K}, "
                  f"ef_search {args.ef_search}, {time.strftime('%Y-%m-%d %H:%M')}")  # fmt: skip
            report(run(conn, queries, args.ef_search, mixes))


if __name__ == "__main__":
    main()
