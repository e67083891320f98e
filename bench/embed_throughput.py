"""Text to searchable chunks with the local embedder, against the model alone.

The same chunks (SciFact abstracts cut into pieces of about ``--words`` words, each piece
unique) are embedded three times in one run:

  model alone   sentence-transformers' encode over all of them, batch size 64, in this
                process (the service stopped), before the service and again after it;
  service       ``POST /api/rag/documents`` of documents of ``--per-doc`` chunks without
                vectors (two requests in flight), timed from the first request to the last
                answer, when every chunk is stored with its vector (searchable): the
                service splits nothing here, it hashes, looks up the cache, embeds
                (batch size 64), stores.

The ratio (service throughput / the mean of the model alone's two) is the figure: the
model should be the limit. Timing the model on both sides of the service keeps a machine
that gets busier or quieter during the run from tilting the ratio (the two model rows say
how much it did). On a machine others share, the CPU seconds say it without their noise:
this process's for the model alone, against the service's and its database's (the
embedded server's processes, those that ended meanwhile included) for the service; with
DATABASE_URL set the database's are not counted.

    python bench/embed_throughput.py --chunks 2000
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import DATA_DIR, fresh_database, print_table, server, service
from bench.quality import DATASETS

BATCH = 64


def pieces(count: int, words: int) -> list[str]:
    found: list[str] = []
    with (DATASETS / "scifact" / "corpus.jsonl").open() as handle:
        for line in handle:
            doc = json.loads(line)
            text = doc["text"].split()
            for start in range(0, len(text), words):
                piece = " ".join(text[start : start + words])
                if len(piece.split()) >= words // 2:
                    found.append(f"{doc['_id']}.{start} {piece}")
                if len(found) == count:
                    return found
    return found


@dataclass
class Spent:
    seconds: float
    cpu: float  # CPU seconds (every thread, and the database for the service)


def model_alone(texts: list[str]) -> Spent:
    from app.embed.config import local_default
    from app.embed.local import loaded_model, model_source

    model = loaded_model(model_source(local_default()))
    model.encode(texts[:BATCH], BATCH, True)  # warm up
    started, cpu = time.perf_counter(), time.process_time()
    model.encode(texts, BATCH, True)
    return Spent(time.perf_counter() - started, time.process_time() - cpu)


def _cpu(process: psutil.Process) -> float:
    """CPU seconds of a process and its children, alive or ended."""
    times = process.cpu_times()
    total = times.user + times.system + times.children_user + times.children_system
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):  # ended since the list was read
            total += sum(child.cpu_times()[:2])
    return total


def serving_processes() -> list[psutil.Process]:
    """The service (this process's child) and the embedded database server."""
    found = [c for c in psutil.Process().children() if "serve" in c.cmdline()]
    pidfile = DATA_DIR / "pgdata" / "postmaster.pid"
    if "DATABASE_URL" not in os.environ and pidfile.exists():
        found.append(psutil.Process(int(pidfile.read_text().split()[0])))
    return found


def through_service(base: str, texts: list[str], per_doc: int) -> Spent:
    docs = [{"doc_id": f"d{n}", "chunks": [{"chunk": t} for t in texts[i : i + per_doc]]}
            for n, i in enumerate(range(0, len(texts), per_doc))]  # fmt: skip
    with httpx.Client(base_url=base, timeout=600) as client:
        warm = client.post("/api/rag/documents", json={"doc_id": "warm", "chunks": [
            {"chunk": "warming the model up"}]})  # fmt: skip
        warm.raise_for_status()
        processes = serving_processes()
        started, cpu = time.perf_counter(), sum(map(_cpu, processes))

        def send(doc: dict) -> None:
            r = client.post("/api/rag/documents", json=doc)
            if r.status_code != 200 or r.json()["embedded"] != len(doc["chunks"]):
                raise SystemExit(f"{doc['doc_id']}: {r.status_code} {r.text[:300]}")

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(send, docs))
        return Spent(time.perf_counter() - started, sum(map(_cpu, processes)) - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=2000)
    parser.add_argument("--words", type=int, default=60)
    parser.add_argument("--per-doc", type=int, default=250)
    args = parser.parse_args()
    texts = pieces(args.chunks, args.words)
    before = model_alone(texts)
    with server() as admin:
        url = fresh_database(admin, "bench_embed_throughput", 384)
        env = {"RAG_EMBEDDER": "local", "RAG_SYNC_EMBED_MAX_CHUNKS": str(args.per_doc),
               "RAG_REQUEST_TIMEOUT": "3600"}  # fmt: skip
        with service(url, **env) as base:
            served = through_service(base, texts, args.per_doc)
        with psycopg.connect(url) as conn:
            stored = conn.execute("SELECT count(*) FROM rag.vectors_1").fetchone()[0]
    assert stored == len(texts) + 1, stored
    after = model_alone(texts)
    alone = Spent((before.seconds + after.seconds) / 2, (before.cpu + after.cpu) / 2)
    n = len(texts)
    rows = [[name, n, spent.seconds, n / spent.seconds, alone.seconds / spent.seconds,
             spent.cpu, alone.cpu / spent.cpu] for name, spent in
            [("model alone, before (encode, batch 64)", before),
             ("service: text to searchable chunks", served),
             ("model alone, after (encode, batch 64)", after)]]  # fmt: skip
    print(f"\n{n} chunks of ~{args.words} words, all-MiniLM-L6-v2 on the CPU, "
          f"{time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["path", "chunks", "seconds", "chunks/s", "of the model alone (mean)",
                 "CPU s", "of the model alone (mean CPU)"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
