"""A 100 MB upload and the service's memory: the resident set of ``ragsearch serve``
(sampled every 10 ms) from before the upload until the job it becomes has stored every
file, against its resident set before.

The upload is ``--files`` text files of ``--mb-each`` MB (SciFact abstracts, repeated
with numbers so that no two paragraphs are the same), sent as one multipart body,
streamed from disk by the client; the service spools it, copies it into the job queue in
1 MiB parts, and its workers read, split and store one file at a time. No space embeds
here (RAG_EMBEDDER=none): the figure is the service's own memory, not a model's.

    python bench/upload_memory.py
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.body_memory import PeakRss, serve
from bench.common import fresh_database, print_table, server
from bench.quality import DATASETS

MB = 1024 * 1024


def write_files(folder: Path, count: int, mb_each: int) -> list[Path]:
    with (DATASETS / "scifact" / "corpus.jsonl").open() as handle:
        abstracts = [json.loads(line)["text"] for line in handle][:2000]
    paths = []
    for n in range(count):
        path = folder / f"part{n:03d}.txt"
        with path.open("w") as out:
            written, i = 0, 0
            while written < mb_each * MB:
                paragraph = f"Part {n} paragraph {i}. {abstracts[i % len(abstracts)]}\n\n"
                out.write(paragraph)
                written += len(paragraph.encode())
                i += 1
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--mb-each", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, server() as admin:
        paths = write_files(Path(folder), args.files, args.mb_each)
        total = sum(p.stat().st_size for p in paths)
        url = fresh_database(admin, "bench_upload_memory", 384)
        with serve(url) as (base, pid), httpx.Client(base_url=base, timeout=600) as client:
            time.sleep(1)
            handles = [p.open("rb") for p in paths]
            with PeakRss(pid) as rss:
                before = rss.peak
                started = time.perf_counter()
                files = [("files", (p.name, h)) for p, h in zip(paths, handles, strict=True)]
                r = client.post("/api/rag/documents/upload", files=files)
                sent = time.perf_counter() - started
                if r.status_code != 202:
                    raise SystemExit(f"{r.status_code} {r.text[:300]}")
                location = r.headers["location"]
                while (job := client.get(location).json()["job"])["status"] not in (
                        "done", "failed", "cancelled"):  # fmt: skip
                    time.sleep(0.5)
                stored = time.perf_counter() - started
            for handle in handles:
                handle.close()
    if job["progress"]["items"]["done"] != args.files:
        raise SystemExit(f"the job did not store every file: {job}")
    grown = (rss.peak - before) / MB
    day = time.strftime("%Y-%m-%d")
    print(f"\nan upload of {args.files} files, {total / MB:.0f} MB in all, {day}")
    print_table(["upload MB", "chunks stored", "upload s", "stored s", "RSS before MB",
                 "RSS peak MB", "RSS growth MB"],
                [[total / MB, job["progress"]["chunks"]["stored"], sent, stored, before / MB,
                  rss.peak / MB, grown]])  # fmt: skip


if __name__ == "__main__":
    main()
