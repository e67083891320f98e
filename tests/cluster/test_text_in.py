"""Documents in on the cluster: texts embedded by the service through a space's embedder
(the jobs' queue on the coordinator, the chunks on a worker), and a space re-embedded
(its shadow table distributed beside the space's own, switched in one transaction)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from app.cluster.local import LocalCluster
from embed_server import embed_server

from .oracle import service_client

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
