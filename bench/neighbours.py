"""One tenant's writes and searches beside another tenant's flood of writes, through one
embeddings endpoint that every tenant's space shares.

An OpenAI-compatible endpoint (tests/embed_server.py: hash vectors, each call answered
``--latency`` seconds after it came, calls overlapping as a model server's would) embeds
the space "remote" (batch size 1, ``--concurrency`` calls at once) for two collections.
The quiet tenant writes a one-chunk document and searches, one request at a time, turn
about, for ``--seconds``: first alone, then while the flooding tenant's ``--writers``
threads write document after document of ``--chunks`` chunks into a collection of its
own. The table gives the quiet tenant's latencies alone and flooded, the ratio of their
p50s, and what the flood stored while the quiet tenant measured (its 429s come from
RAG_COLLECTION_CONCURRENCY, the writes one collection may have in flight). With
``--checkout`` another clone (with its own .venv) is measured the same way, in the same
run, against an endpoint of its own (e.g. the code before a change).

    python bench/neighbours.py --seconds 20 --writers 12 [--checkout ../before]
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import free_port, fresh_database, percentiles, print_table, server, service

ENDPOINT = Path(__file__).resolve().parent.parent / "tests" / "embed_server.py"
DIMS = 8
_unique = itertools.count()


@contextmanager
def endpoint(latency: float) -> Iterator[str]:
    """The embeddings server in a process of its own; yields its ``/v1`` URL."""
    port = free_port()
    argv = [sys.executable, str(ENDPOINT), str(port), "--hash", str(DIMS),
            "--latency", str(latency)]  # fmt: skip
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    try:
        if process.stdout is None or process.stdout.readline().strip() != "ready":
            raise RuntimeError("the embeddings server did not start")
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.kill()
        process.wait()


def prepare(base: str, url: str, concurrency: int) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        config = {"kind": "openai", "url": url, "model": f"hash-{DIMS}",
                  "concurrency": concurrency, "batch_size": 1}  # fmt: skip
        made = client.post("/api/rag/spaces", json={"name": "remote", "dims": DIMS,
                                                    "embedder": config})  # fmt: skip
        assert made.status_code == 201, made.text
        for name in ("quiet", "flood"):
            made = client.post("/api/rag/collections", json={"name": name})
            assert made.status_code == 201, made.text


def document(collection: str, chunks: int) -> dict[str, object]:
    n = next(_unique)  # every text new: none is found in the embedding cache
    pieces = [{"chunk": f"note {n}.{i} of {collection}: cold brew steeps a day."}
              for i in range(chunks)]  # fmt: skip
    return {"doc_id": f"{collection}-{n}", "collection": collection, "chunks": pieces}


@dataclass
class Quiet:
    writes: list[float] = field(default_factory=list)  # ms
    searches: list[float] = field(default_factory=list)
    failed: int = 0


def quiet_tenant(base: str, seconds: float) -> Quiet:
    spent = Quiet()
    question = {"query": "how long does cold brew steep", "collection": "quiet", "k": 5}
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=120) as client:
        while time.monotonic() < deadline:
            for path, body, into in (("/api/rag/documents", document("quiet", 1), spent.writes),
                                     ("/api/rag/search", question, spent.searches)):  # fmt: skip
                started = time.perf_counter()
                answer = client.post(path, json=body)
                into.append((time.perf_counter() - started) * 1000)
                spent.failed += answer.status_code != 200
    return spent


@dataclass
class Flood:
    stored: int = 0  # chunks
    throttled: int = 0  # 429s
    failed: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int, chunks: int) -> None:
        with self.lock:
            if status == 200:
                self.stored += chunks
            elif status == 429:
                self.throttled += 1
            else:
                self.failed += 1

    def chunks_stored(self) -> int:
        with self.lock:
            return self.stored

    def writer(self, base: str, chunks: int) -> None:
        with httpx.Client(base_url=base, timeout=120) as client:
            while not self.stop.is_set():
                answer = client.post("/api/rag/documents", json=document("flood", chunks))
                self.count(answer.status_code, chunks)
                if answer.status_code == 429:
                    time.sleep(0.05)


def flooded(base: str, args: argparse.Namespace) -> tuple[Quiet, Flood, float]:
    """The quiet tenant beside the flood, and the flood's chunks/s over the same span."""
    flood = Flood()
    threads = [threading.Thread(target=flood.writer, args=(base, args.chunks))
               for _ in range(args.writers)]  # fmt: skip
    for thread in threads:
        thread.start()
    time.sleep(1)  # the flood fills the endpoint's calls
    started, stored_before = time.monotonic(), flood.chunks_stored()
    quiet = quiet_tenant(base, args.seconds)
    rate = (flood.chunks_stored() - stored_before) / (time.monotonic() - started)
    flood.stop.set()
    for thread in threads:
        thread.join(180)
    return quiet, flood, rate


def measure(
    label: str, admin: str, checkout: Path | None, args: argparse.Namespace
) -> list[list[object]]:
    url = fresh_database(admin, "bench_neighbours", DIMS)
    env = {"RAG_EMBEDDER": "none", "RAG_DEFAULT_DIMS": str(DIMS)}
    with endpoint(args.latency) as embeddings, service(url, checkout=checkout, **env) as base:
        prepare(base, embeddings, args.concurrency)
        print(f"{label}: the quiet tenant alone for {args.seconds} s", flush=True)
        alone = quiet_tenant(base, args.seconds)
        print(f"{label}: the same beside {args.writers} flooding writers", flush=True)
        beside, flood, rate = flooded(base, args)
    rows: list[list[object]] = []
    for what, before, after in (("write", alone.writes, beside.writes),
                                ("search", alone.searches, beside.searches)):  # fmt: skip
        p50, p95, p99 = percentiles(after)
        rows.append([label, what, len(before), percentiles(before)[0], len(after), p50, p95,
                     p99, max(after), p50 / percentiles(before)[0],
                     f"{rate:,.0f}", flood.throttled,
                     alone.failed + beside.failed + flood.failed])  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--writers", type=int, default=12)
    parser.add_argument("--chunks", type=int, default=4, help="chunks per flooding write")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per endpoint call")
    parser.add_argument("--concurrency", type=int, default=4, help="the endpoint's calls")
    parser.add_argument("--checkout", type=Path, help="another clone, measured alike")
    args = parser.parse_args()
    rows: list[list[object]] = []
    with server() as admin:
        rows += measure("this", admin, None, args)
        if args.checkout:
            rows += measure(args.checkout.name, admin, args.checkout.resolve(), args)
    print(f"\n{args.writers} writers of {args.chunks} chunks, endpoint {args.latency} s a "
          f"call, {args.concurrency} calls at once, {args.seconds} s a phase; ms")  # fmt: skip
    print_table(["code", "quiet's", "alone n", "alone p50", "flooded n", "p50", "p95", "p99",
                 "max", "p50 / alone", "flood chunks/s", "flood 429s", "errors"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
