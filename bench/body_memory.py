"""The service's memory under big request bodies: the resident set of ``ragsearch serve``
(sampled every 10 ms) while it receives the bodies of the hostile-input report (a 50 MB
search, six 60 MB searches at once, 60 MB documents, a 50 MB metadata string), with the
status each got.

    python bench/body_memory.py [--database-url URL]

Without a URL it uses the embedded server in bench/data/pgdata (a database of its own,
dropped at the end).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import orjson
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import free_port, fresh_database, print_table, server

MB = 1024 * 1024
DIMS = 384


class PeakRss:
    """The highest resident set of a process while it is watched."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.process.memory_info().rss)
            time.sleep(0.01)

    def __enter__(self) -> PeakRss:
        self.peak = self.process.memory_info().rss
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        time.sleep(0.2)  # the last allocations of the answer
        self._stop.set()
        self._thread.join()


def search_body(size: int) -> bytes:
    """A search whose filter lists values up to ``size`` bytes."""
    values = [f"v{i:08d}" for i in range(size // 12)]
    return orjson.dumps({"embedding": [0.1] * DIMS, "filter": {"kind": {"$in": values}}})


def document_body(size: int, doc_id: str) -> bytes:
    """A document of 1,000 chunks (a vector and text each) of ``size`` bytes in all."""
    text = "word " * ((size // 1000 - 8 * DIMS) // 5)
    chunks = [{"chunk_id": f"{doc_id}-{i}", "chunk": text, "embedding": [0.123456] * DIMS}
              for i in range(1000)]  # fmt: skip
    return orjson.dumps({"doc_id": doc_id, "chunks": chunks})


def metadata_body(size: int) -> bytes:
    chunk = {"chunk": "metadata", "embedding": [0.1] * DIMS}
    return orjson.dumps({"doc_id": "meta", "metadata": {"note": "x" * size}, "chunks": [chunk]})


def chunked(body: bytes) -> Iterator[bytes]:
    """The body without a Content-Length (transfer-encoding: chunked)."""
    for start in range(0, len(body), MB):
        yield body[start : start + MB]


def send(base: str, path: str, body: bytes, stream: bool = False) -> int:
    content = chunked(body) if stream else body
    try:
        r = httpx.post(base + path, content=content, timeout=300,
                       headers={"Content-Type": "application/json"})  # fmt: skip
    except httpx.HTTPError as error:
        return -len(type(error).__name__)  # the connection was cut (a refusal mid-body)
    return r.status_code


@contextmanager
def serve(url: str) -> Iterator[tuple[str, int]]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_")}
    env.update({"DATABASE_URL": url, "RAG_PORT": str(port), "RAG_LOG_LEVEL": "warning",
                "RAG_EMBEDDER": "none"})  # fmt: skip
    process = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(base + "/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(60)


def cases() -> list[tuple[str, Callable[[str], list[int]]]]:
    def concurrently(n: int, call: Callable[[int], int]) -> list[int]:
        with ThreadPoolExecutor(n) as pool:
            return list(pool.map(call, range(n)))

    search_50 = search_body(50 * MB)
    search_60 = search_body(60 * MB)
    docs_60 = [document_body(60 * MB, f"big-{i}") for i in range(6)]
    meta_50 = metadata_body(50 * MB)
    return [
        ("1 search of 50 MB", lambda b: [send(b, "/api/rag/search", search_50)]),
        ("1 search of 50 MB, chunked", lambda b: [send(b, "/api/rag/search", search_50, True)]),
        ("6 searches of 60 MB at once",
         lambda b: concurrently(6, lambda _: send(b, "/api/rag/search", search_60))),
        ("1 document of 60 MB", lambda b: [send(b, "/api/rag/documents", docs_60[0])]),
        ("6 documents of 60 MB at once",
         lambda b: concurrently(6, lambda i: send(b, "/api/rag/documents", docs_60[i]))),
        ("1 document with 50 MB of metadata",
         lambda b: [send(b, "/api/rag/documents", meta_50)]),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    args = parser.parse_args()
    rows = []
    with server() if args.database_url is None else _given(args.database_url) as admin:
        url = fresh_database(admin, "body_memory", DIMS)
        try:
            with serve(url) as (base, pid):
                for name, run in cases():
                    with PeakRss(pid) as rss:
                        before = rss.peak
                        statuses = run(base)
                    rows.append((name, ", ".join(map(str, sorted(statuses))),
                                 before / MB, rss.peak / MB, (rss.peak - before) / MB))  # fmt: skip
                    print(f"{name}: {statuses}", flush=True)
        finally:
            _drop(admin, "body_memory")
    print_table(["bodies", "statuses", "RSS before MB", "RSS peak MB", "growth MB"], rows)


@contextmanager
def _given(url: str) -> Iterator[str]:
    yield url


def _drop(admin: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
