"""Bulk ingest speed: ``ragsearch ingest`` of a synthetic corpus into a fresh database.

Each run creates an empty migrated database, loads the corpus file (bench/corpus.py)
with ``ragsearch ingest`` and reports chunks per second, HNSW index and keyword index
included. Runs: vectors as JSON numbers or base64 float32, and the index built after
the load (``--rebuild-index always``, the default for a first load) or grown row by row
(``never``); the first run is the baseline of the ratio column. A second table splits
each run into the load and the HNSW build, with the CPU each took of the parsing
process, the loading process and the database server (bench/ingest_cpu.py): on two
cores, what bounds the chunks per second.

    python bench/ingest_bench.py --n 100000 --dims 384
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_file, fresh_database, ingest_command, print_table, server
from bench.corpus import CorpusSpec
from bench.ingest_cpu import HEADERS, timed_ingest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--runs", default="json:always,base64:always,json:never",
                        help="vector format:index mode pairs, comma-separated")  # fmt: skip
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    database = f"ingest_bench_{args.dims}"
    rows, phases = [], []
    with server() as admin:
        for vector_format, rebuild in (run.split(":") for run in args.runs.split(",")):
            path = corpus_file(spec, vector_format)
            url = fresh_database(admin, database, args.dims)
            print(f"loading {path.name} (--rebuild-index {rebuild})", file=sys.stderr)
            argv, env = ingest_command(url, path, args.dims, rebuild)
            split = timed_ingest(argv, env, url)
            seconds = split.whole.seconds
            rows.append([vector_format, rebuild, seconds, args.n / seconds])
            phases += [[f"{vector_format}/{rebuild}", *phase.row()] for phase in split]
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    baseline = rows[0][3]
    print(f"\n{args.n:,} chunks x {args.dims} dims, ragsearch ingest, {time.strftime('%Y-%m-%d')}")
    print_table(["vectors", "index", "seconds", "chunks/s", "vs first"],
                [[*row, f"{row[3] / baseline:.2f}x"] for row in rows])  # fmt: skip
    print("\nWhere the time goes (CPU seconds of each role; 2.00 cores busy is both cores):")
    print_table(["run", *HEADERS], phases)


if __name__ == "__main__":
    main()
