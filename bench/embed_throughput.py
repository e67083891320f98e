"""Text to searchable chunks with the local embedder, against the model alone.

The same chunks (SciFact abstracts cut into pieces of about ``--words`` words, each piece
unique) are embedded twice in one run:

  model alone   sentence-transformers' encode over all of them, batch size 64, in this
                process (the service stopped);
  service       ``POST /api/rag/documents`` of documents of ``--per-doc`` chunks without
                vectors (two requests in flight), timed from the first request to the last
                answer, when every chunk is stored with its vector (searchable): the
                service splits nothing here, it hashes, looks up the cache, embeds
                (batch size 64), stores.

The ratio (service throughput / model alone) is the figure: the model should be the limit.

    python bench/embed_throughput.py --chunks 2000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import fresh_database, print_table, server, service
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


def model_alone(texts: list[str]) -> float:
    from app.embed.config import local_default
    from app.embed.local import loaded_model, model_source

    model = loaded_model(model_source(local_default()))
    model.encode(texts[:BATCH], BATCH, True)  # warm up
    started = time.perf_counter()
    model.encode(texts, BATCH, True)
    return time.perf_counter() - started


def through_service(base: str, texts: list[str], per_doc: int) -> float:
    docs = [{"doc_id": f"d{n}", "chunks": [{"chunk": t} for t in texts[i : i + per_doc]]}
            for n, i in enumerate(range(0, len(texts), per_doc))]  # fmt: skip
    with httpx.Client(base_url=base, timeout=600) as client:
        warm = client.post("/api/rag/documents", json={"doc_id": "warm", "chunks": [
            {"chunk": "warming the model up"}]})  # fmt: skip
        warm.raise_for_status()
        started = time.perf_counter()

        def send(doc: dict) -> None:
            r = client.post("/api/rag/documents", json=doc)
            if r.status_code != 200 or r.json()["embedded"] != len(doc["chunks"]):
                raise SystemExit(f"{doc['doc_id']}: {r.status_code} {r.text[:300]}")

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(send, docs))
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=2000)
    parser.add_argument("--words", type=int, default=60)
    parser.add_argument("--per-doc", type=int, default=250)
    args = parser.parse_args()
    texts = pieces(args.chunks, args.words)
    alone = model_alone(texts)
    with server() as admin:
        url = fresh_database(admin, "bench_embed_throughput", 384)
        env = {"RAG_EMBEDDER": "local", "RAG_SYNC_EMBED_MAX_CHUNKS": str(args.per_doc)}
        with service(url, **env) as base:
            served = through_service(base, texts, args.per_doc)
        with psycopg.connect(url) as conn:
            stored = conn.execute("SELECT count(*) FROM rag.vectors_1").fetchone()[0]
    assert stored == len(texts) + 1, stored
    rows = [["model alone (encode, batch 64)", len(texts), alone, len(texts) / alone, 1.0],
            ["service: text to searchable chunks", len(texts), served, len(texts) / served,
             alone / served]]  # fmt: skip
    print(f"\n{len(texts)} chunks of ~{args.words} words, all-MiniLM-L6-v2 on the CPU, "
          f"{time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["path", "chunks", "seconds", "chunks/s", "of the model alone"], rows)


if __name__ == "__main__":
    main()
