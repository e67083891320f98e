"""A job survives a kill -9 of the service: the next service takes it when its lease runs
out, resumes at the first file not stored, embeds no chunk twice (the embeddings server
counts every text it answered) and loses none; no document is ever visible with only
some of its chunks."""

from __future__ import annotations

import os
import signal

import httpx

from conftest import PgServer, start_service
from embed_server import embed_server
from helpers import until

FILES = 6
PARAGRAPHS = 10


def _file(run: str, n: int) -> bytes:
    lines = [f"{run} file {n} paragraph {p} has words of its own, {n * 100 + p}."
             for p in range(PARAGRAPHS)]  # fmt: skip
    return "\n\n".join(lines).encode()


def _documents(service_url: str) -> dict[str, list[dict]]:
    found = {}
    for n in range(FILES):
        r = httpx.get(f"{service_url}/api/rag/documents/f{n}.txt")
        if r.status_code == 200:
            found[f"f{n}.txt"] = r.json()["chunks"]
    return found


def test_a_job_resumes_after_kill_9_and_embeds_every_chunk_once(pg: PgServer, template_db):
    url = pg.create_database()
    env = {"DATABASE_URL": url, "RAG_EMBEDDER": "none", "RAG_JOB_LEASE_SECONDS": "2",
           "RAG_CHUNK_TOKENS": "20", "RAG_CHUNK_OVERLAP_TOKENS": "0"}  # fmt: skip
    run = f"r{os.getpid()}"
    with embed_server("--hash", "8") as embed_url:
        control = httpx.Client(base_url=embed_url.removesuffix("/v1"))
        first = start_service(env)
        try:
            space = {"name": "remote", "dims": 8, "embedder": {
                "kind": "openai", "url": embed_url, "model": "hash-8", "batch_size": 2,
                "concurrency": 1}}  # fmt: skip
            assert httpx.post(first.base_url + "/api/rag/spaces", json=space).status_code == 201
            control.post("/faults", json=["ok"] * 12 + ["hold"])
            files = [("files", (f"f{n}.txt", _file(run, n))) for n in range(FILES)]
            r = httpx.post(first.base_url + "/api/rag/documents/upload",
                           params={"async": "true"}, files=files)  # fmt: skip
            assert r.status_code == 202, r.text
            location = r.headers["location"]
            until(lambda: control.get("/stats").json()["held"] == 1, 60, "a held call")
            seen_before = _documents(first.base_url)
            assert first.process is not None
            first.process.send_signal(signal.SIGKILL)
            first.process.wait()
        finally:
            first.stop()
        control.post("/release")
        assert 0 < len(seen_before) < FILES
        second = start_service(env)
        try:
            until(lambda: httpx.get(second.base_url + location).json()["job"]["status"] == "done",
                  60, "the job resumed and done")  # fmt: skip
            job = httpx.get(second.base_url + location).json()["job"]
            stored = _documents(second.base_url)
        finally:
            second.stop()
        texts = control.get("/stats").json()["texts"]
    pg.drop_database(url)
    assert job["attempts"] == 2 and job["progress"]["items"]["done"] == FILES
    chunks = [c for doc in stored.values() for c in doc]
    assert len(stored) == FILES and all(c["spaces"] == ["remote"] for c in chunks)
    assert len(texts) == len(set(texts)) == len(chunks)  # every chunk embedded exactly once
    for name, doc in seen_before.items():  # what was visible before the kill was whole
        assert [c["chunk"] for c in doc] == [c["chunk"] for c in stored[name]]
    assert job["progress"]["chunks"]["cached"] > 0  # the resumed file's embedded half
