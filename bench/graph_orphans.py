"""Chunks the HNSW graph does not return for their own vector: how many, per ef_search.

    python bench/graph_orphans.py --n 100000 --dims 384 --sample 2000
    python bench/graph_orphans.py --database split_synth_v4_1000000x384_s0 --collection split

The threshold search trusts the walk's order: a chunk nearer the query than the farthest
chunk the walk returned is taken to have been returned. A chunk the graph cannot reach
(or reaches only from few of its neighbours) breaks that trust for every query it would
answer. This script samples chunks of a collection, searches the space's own HNSW index
(the service's expression: normalised halfvec, cosine) with each chunk's own vector, and
counts those not among the 10 nearest returned, at each ef_search: those the walk misses
even where the query is the chunk itself.

The database is search_bench.py's corpus for --n/--dims (built if missing) unless
--database names another on the same server.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import psycopg
from pgvector.psycopg import register_vector
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, print_table, server, with_database
from bench.corpus import CorpusSpec

K = 10
SEED = 0.42


def ids(conn: psycopg.Connection, collection: str, space: str) -> tuple[int, int, int]:
    """The collection's id, the space's id and dimensions."""
    collection_id = conn.execute(
        "SELECT id FROM rag.collections WHERE name = %s", (collection,)
    ).fetchone()
    space_row = conn.execute("SELECT id, dims FROM rag.spaces WHERE name = %s", (space,)).fetchone()
    if collection_id is None or space_row is None:
        raise SystemExit(f"no collection {collection!r} or no space {space!r}")
    return collection_id[0], space_row[0], space_row[1]


def orphans(url: str, collection: str, space: str, sample: int, ef_search: list[int]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        collection_id, space_id, dims = ids(conn, collection, space)
        table = f"rag.vectors_{space_id}"
        conn.execute("SELECT setseed(%s)", (SEED,))
        chunks = conn.execute(
            f"SELECT chunk_pk, embedding FROM {table} WHERE collection_id = %s "
            "ORDER BY random() LIMIT %s",
            (collection_id, sample),
        ).fetchall()
        nearest = (
            f"SELECT chunk_pk FROM {table} WHERE collection_id = %s ORDER BY "
            f"l2_normalize(embedding)::halfvec({dims}) <=> "
            f"l2_normalize(%s::vector)::halfvec({dims}) LIMIT {K}"
        )
        held = conn.execute(
            f"SELECT count(*) FROM {table} WHERE collection_id = %s", (collection_id,)
        ).fetchone()[0]
        rows = []
        for ef in ef_search:
            conn.execute(f"SET hnsw.ef_search = {int(ef)}")
            missed, started = 0, time.perf_counter()
            for pk, vector in tqdm(chunks, desc=f"ef_search {ef}", unit="chunk", leave=False):
                found = conn.execute(nearest, (collection_id, vector), prepare=True).fetchall()
                missed += pk not in {row[0] for row in found}
            share = missed / len(chunks)
            rows.append([ef, f"{missed} of {len(chunks)}", f"{100 * share:.2f}%",
                         f"~{share * held:,.0f}", time.perf_counter() - started])  # fmt: skip
    print(f"\n### {collection!r} ({held:,} chunks), space {space!r}: chunks not among the "
          f"{K} nearest of their own vector")  # fmt: skip
    print_table(["ef_search", "missed", "share", "in the collection", "seconds"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--database", default=None, help="a database on the same server")
    parser.add_argument("--collection", default="default")
    parser.add_argument("--space", default="default")
    parser.add_argument("--sample", type=int, default=2_000)
    parser.add_argument("--ef-search", default="40,100,400")
    args = parser.parse_args()
    efs = [int(x) for x in args.ef_search.split(",")]
    with server() as admin:
        url = (with_database(admin, args.database) if args.database
               else corpus_database(admin, CorpusSpec(args.n, args.dims)))  # fmt: skip
        orphans(url, args.collection, args.space, args.sample, efs)


if __name__ == "__main__":
    main()
