"""Documents in on the cluster: texts embedded by the service through a space's embedder
(the jobs' queue on the coordinator, the chunks on a worker), a space re-embedded (its
shadow table distributed beside the space's own, switched in one transaction), a JSONL
file loaded by ``ragsearch ingest`` (its HNSW index dropped and built again on the
worker), and a space deleted."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.cluster.local import LocalCluster
from embed_server import embed_server

from .oracle import service_client, unit

COLLECTION = "texts"


@pytest.fixture(scope="module")
def client(cluster: LocalCluster) -> Iterator[httpx.Client]:
    with service_client(cluster.url, RAG_JOB_LEASE_SECONDS="3") as service:
        yield service


def _embedder(url: str, model: str) -> dict:
    return {"kind": "openai", "url": url, "model": model, "batch_size": 4, "concurrency": 1}


def _space(client: httpx.Client, name: str) -> dict:
    return next(s for s in client.get("/api/rag/spaces").json()["spaces"] if s["name"] == name)


def _wait(client: httpx.Client, location: str) -> dict:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        job = client.get(location).json()["job"]
        if job["status"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.2)
    raise AssertionError(job)


def test_texts_are_embedded_and_a_space_is_reembedded(client):
    with embed_server("--hash", "8") as old, embed_server("--hash", "16") as new:
        space = {"name": "hashed", "dims": 8, "embedder": _embedder(old, "hash-8")}
        assert client.post("/api/rag/spaces", json=space).status_code == 201, space
        created = client.post("/api/rag/collections", json={"name": COLLECTION})
        assert created.status_code == 201, created.text
        for n in range(6):
            doc = {"doc_id": f"text-{n}", "text": f"A note about river number {n}.",
                   "collection": COLLECTION}  # fmt: skip
            stored = client.post("/api/rag/documents", json=doc)
            assert stored.status_code == 200, stored.text
        search = {"query": "river", "active_spaces": ["hashed"], "hybrid_vector_weight": 1,
                  "collection": COLLECTION}  # fmt: skip
        before = client.post("/api/rag/search", json=search)
        assert before.status_code == 200 and len(before.json()["rows"]) == 6, before.text
        started = client.post("/api/rag/spaces/hashed/reembed",
                              json={"embedder": _embedder(new, "hash-16"), "dims": 16})  # fmt: skip
        assert started.status_code == 202, started.text
        job = _wait(client, started.headers["location"])
        assert job["status"] == "done", client.get(started.headers["location"]).text
        assert _space(client, "hashed")["dims"] == 16
        stored = client.get(
            "/api/rag/documents/text-3",
            params={"collection": COLLECTION, "include_embeddings": "true"},
        )
        assert len(stored.json()["chunks"][0]["embeddings"]["hashed"]) == 16, stored.text
        after = client.post("/api/rag/search", json=search)
        assert after.status_code == 200 and len(after.json()["rows"]) == 6, after.text
        # (the space's embedder goes with this test's servers)
        assert client.delete("/api/rag/spaces/hashed").status_code == 200


def _ingest(url: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "ingest", str(path), "--rebuild-index", "always"],
        env={"DATABASE_URL": url, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_ingest_loads_a_file_through_the_coordinator(client, cluster, tmp_path):
    assert client.post("/api/rag/collections", json={"name": "bulk"}).status_code == 201
    path = tmp_path / "bulk.jsonl"
    docs = [{"doc_id": f"bulk-{i}", "collection": "bulk", "src": f"file:///bulk/{i}.md",
             "chunks": [{"chunk": f"bulk document {i} part {c}", "embedding": unit(i * 8 + c, 384)}
                        for c in range(4)]}
            for i in range(30)]  # fmt: skip
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    done = _ingest(cluster.url, path)
    assert done.returncode == 0, done.stderr
    assert "stored 30 documents, 120 chunks" in done.stdout, done.stdout
    again = _ingest(cluster.url, path)
    assert again.returncode == 0 and "(120 replaced)" in again.stdout, again.stdout + again.stderr
    found = client.get("/api/rag/collections").json()["collections"]
    assert [(c["documents"], c["chunks"]) for c in found if c["name"] == "bulk"] == [(30, 120)]
    search = {"embedding": unit(9, 384), "k": 10, "collection": "bulk", "exact": False}
    answer = client.post("/api/rag/search", json=search)
    assert answer.status_code == 200 and len(answer.json()["rows"]) == 10, answer.text
    assert answer.json()["rows"][0]["chunk_id"] == "bulk-1-chunk-1"  # the vector searched for


def test_ingest_loads_a_split_collection_and_builds_its_parts_indexes_at_once(
    client, cluster, tmp_path
):
    made = client.post("/api/rag/collections", json={"name": "bulk-split", "parts": 2})
    assert made.status_code == 201, made.text
    path = tmp_path / "split.jsonl"
    docs = [{"doc_id": f"split-{i}", "collection": "bulk-split",
             "chunks": [{"chunk": f"split document {i} part {c}",
                         "embedding": unit(i * 8 + c, 384)} for c in range(4)]}
            for i in range(30)]  # fmt: skip
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    done = _ingest(cluster.url, path)
    assert done.returncode == 0, done.stderr
    assert "stored 30 documents, 120 chunks" in done.stdout, done.stdout
    assert "rebuilt HNSW index of default/bulk-split.1, default/bulk-split.2" in done.stdout
    # each part's build watched on the workers, without a failing watcher
    assert (
        "index default/bulk-split.1" in done.stderr and "index default/bulk-split.2" in done.stderr
    )
    assert "Traceback" not in done.stderr and "exception" not in done.stderr.lower()
    found = client.get("/api/rag/collections").json()["collections"]
    assert [(c["parts"], c["chunks"]) for c in found if c["name"] == "bulk-split"] == [(2, 120)]
    search = {"embedding": unit(9, 384), "k": 10, "collection": "bulk-split", "exact": False}
    answer = client.post("/api/rag/search", json=search)
    assert answer.status_code == 200 and answer.json()["rows"][0]["chunk_id"] == "split-1-chunk-1"


def test_a_space_is_deleted_and_searches_go_on(client):
    assert client.post("/api/rag/spaces", json={"name": "brief", "dims": 4}).status_code == 201
    doc = {"doc_id": "brief-0", "collection": "bulk",
           "chunks": [{"chunk": "short", "embedding": unit(1, 384),
                       "embeddings": {"brief": [1.0, 0.0, 0.0, 0.0]}}]}  # fmt: skip
    assert client.post("/api/rag/documents", json=doc).status_code == 200
    deleted = client.delete("/api/rag/spaces/brief")
    assert deleted.status_code == 200, deleted.text
    assert "brief" not in {s["name"] for s in client.get("/api/rag/spaces").json()["spaces"]}
    search = {"embedding": unit(9, 384), "k": 3, "collection": "bulk"}
    answer = client.post("/api/rag/search", json=search)
    assert answer.status_code == 200 and len(answer.json()["rows"]) == 3, answer.text
