"""Can a binary (sign-bit, Hamming) index keep the threshold search exact? What bound on
cosine similarity the Hamming distance gives, against the similarity it must beat.

    python bench/binary_bound.py --n 100000 --dims 384 --queries 100

The threshold search stops when no chunk it has not read can reach the k-th best score:
for the vector stream it needs an upper bound on the cosine similarity of every chunk
not read yet. An HNSW walk over halfvec gives one (the distance of the last chunk read,
plus the half-precision rounding). A walk over ``binary_quantize`` bits reads in Hamming
order, and the Hamming distance h of the next chunk bounds the similarity of every unread
unit vector x only by

    q . x  <=  sqrt(sum of the (dims - h) largest q_i^2)

(where the signs differ q_i x_i <= 0; at most dims - h coordinates agree, and by
Cauchy-Schwarz those give at most the norm of q's largest ones). The bound is tight: unit
vectors at that distance come as close to it as one likes. So the stream closes only
where that bound falls under the k-th best similarity. This script reads each query's
chunks in exact Hamming order (what a perfect binary index would return, no graph error)
and prints, at several depths, the bound against the 10th best similarity, how many
queries it would close, and the recall of the usual shortcut (the first depth chunks by
Hamming, re-scored with the full vectors, best 10) against the exact top-10.

Two corpora: the synthetic mixture of bench/corpus.py (same spec as search_bench's
corpus, drawn afresh: no database needed) and SciFact's MiniLM embeddings (real text,
5,183 abstracts, 300 queries; ../shared/datasets/scifact, or RAG_BENCH_DATASETS).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import print_table
from bench.corpus import CorpusSpec, Mixture, query_vectors
from bench.quality import DATASETS

K = 10
DEPTHS = (100, 1_000, 10_000)
SCIFACT = DATASETS / "scifact" / "embeddings"


def hamming_bound(q: np.ndarray, h: int) -> float:
    """The largest cosine a unit vector at Hamming distance >= h from q's signs can have."""
    agree = len(q) - h
    if agree <= 0:
        return 0.0
    largest = np.sort(q * q)[::-1][:agree]
    return float(np.sqrt(largest.sum() / (q @ q)))


def measure(vectors: np.ndarray, queries: np.ndarray) -> list[dict]:
    bits = vectors > 0
    found = []
    for q in queries:
        sims = vectors @ q
        best = np.argsort(-sims, kind="stable")[:K]
        distance = (bits != (q > 0)).sum(axis=1)
        order = np.argsort(distance, kind="stable")
        row: dict = {"theta": float(sims[best[-1]])}
        for depth in DEPTHS:
            if depth >= len(vectors):
                continue
            unread = int(distance[order[depth]])  # the nearest chunk not read
            read = order[:depth]
            top = read[np.argsort(-sims[read], kind="stable")[:K]]
            row[depth] = (hamming_bound(q, unread), len(set(top) & set(best)) / K, unread)
        found.append(row)
    return found


def report(name: str, dims: int, rows: list[dict]) -> None:
    theta = np.array([r["theta"] for r in rows])
    table = []
    for depth in DEPTHS:
        if depth not in rows[0]:
            continue
        bounds = np.array([r[depth][0] for r in rows])
        recall = np.mean([r[depth][1] for r in rows])
        distance = np.median([r[depth][2] for r in rows])
        closes = int(np.sum(bounds < theta))
        table.append([depth, f"{distance:.0f} of {dims}", f"{np.median(bounds):.3f}",
                      f"{np.min(bounds):.3f}", f"{np.median(theta):.3f}",
                      f"{closes}/{len(rows)}", f"{recall:.3f}"])  # fmt: skip
    print(f"\n### {name}: {len(rows)} queries")
    print_table(["depth read", "Hamming of the next (median)", "bound p50", "bound min",
                 "10th best cosine p50", "queries it closes", "re-scored recall@10"],
                table)  # fmt: skip


def corpora(args: argparse.Namespace) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """(name, vectors, queries): the synthetic corpus drawn afresh, then SciFact's MiniLM
    vectors (unit already) where the datasets are at hand."""
    spec = CorpusSpec(args.n, args.dims)
    yield (f"synthetic, {args.n:,} x {args.dims}",
           Mixture(spec).draw(np.random.default_rng(spec.seed + 1), args.n),
           query_vectors(spec, args.queries))  # fmt: skip
    if (SCIFACT / "minilm-docs.npy").exists():
        docs = np.load(SCIFACT / "minilm-docs.npy")
        yield (f"SciFact MiniLM, {len(docs):,} x {docs.shape[1]}", docs,
               np.load(SCIFACT / "minilm-queries.npy")[: args.queries])  # fmt: skip


def arguments(doc: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=100)
    return parser


def main() -> None:
    args = arguments(__doc__).parse_args()
    for name, vectors, queries in corpora(args):
        report(name, vectors.shape[1], measure(vectors, queries))


if __name__ == "__main__":
    main()
