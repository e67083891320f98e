"""Re-sending an unchanged document costs no embedding.

A document of 1,000 chunks without vectors (SciFact pieces) is stored through
``POST /api/rag/documents`` by a service with the local embedder, then sent again
unchanged, then once more with one chunk changed. The table gives each load's time, the
texts the embedder was sent (the answer's ``embedded``) and the time as a share of the
first load's.

    python bench/resend_bench.py
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import fresh_database, print_table, server, service
from bench.embed_throughput import pieces


def timed_post(client: httpx.Client, body: dict) -> tuple[float, dict]:
    started = time.perf_counter()
    r = client.post("/api/rag/documents", json=body)
    seconds = time.perf_counter() - started
    if r.status_code != 200:
        raise SystemExit(f"{r.status_code} {r.text[:300]}")
    return seconds, r.json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=1000)
    args = parser.parse_args()
    texts = pieces(args.chunks, 60)
    body = {"doc_id": "big", "title": "SciFact pieces", "chunks": [{"chunk": t} for t in texts]}
    changed = {**body, "chunks": [*body["chunks"][:-1], {"chunk": "a new last chunk"}]}
    with server() as admin:
        url = fresh_database(admin, "bench_resend", 384)
        env = {"RAG_EMBEDDER": "local", "RAG_SYNC_EMBED_MAX_CHUNKS": str(args.chunks),
               "RAG_REQUEST_TIMEOUT": "3600"}  # fmt: skip
        with service(url, **env) as base, httpx.Client(base_url=base, timeout=900) as client:
            timed_post(client, {"doc_id": "warm", "chunks": [{"chunk": "warm up"}]})
            loads = [("first load", *timed_post(client, body)),
                     ("unchanged, sent again", *timed_post(client, body)),
                     ("one chunk changed", *timed_post(client, changed))]  # fmt: skip
    first = loads[0][1]
    rows = [[name, answer["chunks"], answer["embedded"], answer["cached"], seconds,
             seconds / first] for name, seconds, answer in loads]  # fmt: skip
    print(f"\na document of {args.chunks} chunks, all-MiniLM-L6-v2 on the CPU, "
          f"{time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["load", "chunks", "embedded", "cached", "seconds", "of the first"], rows)


if __name__ == "__main__":
    main()
