"""Collections over HTTP: each tenant's search, explain, stats and documents see only its
own chunks (checked against brute force), deleting one removes everything in it and
nothing else, and keys limited to some collections get 403 elsewhere.

Against RAG_TEST_BASE_URL, that service must hold RAG_COLLECTION_KEYS with
RAG_TEST_SCOPED_KEY (write) and RAG_TEST_SCOPED_READ_KEY (read) limited to "tenant-red".
"""

from __future__ import annotations

import json
import os
from typing import Any

import httpx
import numpy as np
import pytest

from conftest import WRITE_KEY, ServiceProcess

DIMS = 384
RED, BLUE = "tenant-red", "tenant-blue"
SCOPED_KEY = os.environ.get("RAG_TEST_SCOPED_KEY", "scoped-red-write")
SCOPED_READ_KEY = os.environ.get("RAG_TEST_SCOPED_READ_KEY", "scoped-red-read")
WEIGHTS = {"w_rec": 0.0, "w_sig": 0.25}  # w_cos 0.75: scores independent of the clock


GRANTS = {
    SCOPED_KEY: {"collections": [RED], "write": True},
    SCOPED_READ_KEY: {"collections": [RED], "write": False},
}
SERVICE_ENV = {"RAG_EMBEDDER": "none", "RAG_COLLECTION_KEYS": json.dumps(GRANTS)}


def _unit(rng: np.random.Generator) -> np.ndarray:
    v = rng.standard_normal(DIMS)
    return (v / np.linalg.norm(v)).astype(np.float32)


@pytest.fixture(scope="module")
def tenants(client: httpx.Client) -> dict[str, dict[str, Any]]:
    """RED and BLUE hold the same document and chunk ids with different vectors and words;
    each collection's chunks by id: (vector, signal, text)."""
    found: dict[str, dict[str, Any]] = {}
    for seed, name in enumerate((RED, BLUE)):
        client.delete(f"/api/rag/collections/{name}")
        r = client.post("/api/rag/collections", json={"name": name, "description": name})
        assert r.status_code == 201, r.text
        rng = np.random.default_rng(40 + seed)
        chunks: dict[str, Any] = {}
        for d in range(12):
            body = []
            for c in range(5):
                chunk_id, vector = f"tn-{d}-{c}", _unit(rng)
                signal, text = float(rng.uniform()), f"{name} ledger entry {d} {c}"
                chunks[chunk_id] = (vector, signal, text)
                body.append(
                    {
                        "chunk_id": chunk_id,
                        "chunk": text,
                        "signal": signal,
                        "embedding": vector.tolist(),
                        "metadata": {"page": c},
                    }
                )
            doc = {
                "collection": name,
                "doc_id": f"tn-doc-{d}",
                "src": f"https://{name}/{d}",
                "chunks": body,
            }
            assert client.post("/api/rag/documents", json=doc).status_code == 200
        found[name] = chunks
    return found


def _expected(chunks: dict[str, Any], query: np.ndarray, w_sig: float) -> list[str]:
    scores = {
        cid: (1 - w_sig) * float(vec @ query) + w_sig * sig for cid, (vec, sig, _) in chunks.items()
    }
    return sorted(scores, key=lambda cid: (-scores[cid], cid))


def _search(client: httpx.Client, collection: str, query: np.ndarray, **extra: Any) -> dict:
    body = {
        "collection": collection,
        "embedding": query.tolist(),
        "k": 10,
        "max_per_source": 0,
        **WEIGHTS,
        **extra,
    }
    r = client.post("/api/rag/search", json=body)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("exact", [False, True])
def test_search_sees_only_its_collection_and_ranks_it_exactly(client, tenants, exact):
    rng = np.random.default_rng(3)
    for _ in range(4):
        query = _unit(rng)
        for name, chunks in tenants.items():
            answer = _search(client, name, query, exact=exact)
            assert [row["chunk_id"] for row in answer["rows"]] == _expected(chunks, query, 0.25)[
                :10
            ]
            for row in answer["rows"]:
                assert row["chunk"] == chunks[row["chunk_id"]][2]  # this tenant's text
                assert row["src"].startswith(f"https://{name}/")


def test_keyword_search_sees_only_its_collection(client, tenants):
    r = client.post(
        "/api/rag/search",
        json={
            "collection": BLUE,
            "query": "tenant-red ledger",
            "k": 50,
            "w_lex": 1.0,
            "max_per_source": 0,
        },
    )
    assert r.status_code == 200, r.text
    rows = r.json()["rows"]
    assert len(rows) == 50 and all(row["chunk"].startswith(BLUE) for row in rows)


def test_explain_scores_the_chunk_of_the_named_collection(client, tenants):
    query = _unit(np.random.default_rng(9))
    for name, chunks in tenants.items():
        body = {
            "collection": name,
            "embedding": query.tolist(),
            "chunk_id": "tn-4-2",
            "max_per_source": 0,
            **WEIGHTS,
        }
        r = client.post("/api/rag/explain", json=body)
        assert r.status_code == 200, r.text
        vector, signal, _ = chunks["tn-4-2"]
        explained = r.json()
        assert explained["score"] == pytest.approx(
            0.75 * float(vector @ query) + 0.25 * signal, abs=1e-5
        )
        assert explained["rank"] == _expected(chunks, query, 0.25).index("tn-4-2") + 1


def test_explain_names_the_failing_metadata_condition(client, tenants):
    body = {
        "collection": RED,
        "embedding": _unit(np.random.default_rng(2)).tolist(),
        "chunk_id": "tn-1-3",
        "filter": {"page": {"$lt": 2}, "src": {"$exists": False}},
    }
    r = client.post("/api/rag/explain", json=body)
    assert r.status_code == 200, r.text
    explained = r.json()
    assert explained["stage"] == "filter", explained
    assert explained["failed_filters"] == ["filter"]
    assert explained["failed_conditions"] == ["filter.page $lt 2"]


def test_an_unknown_operator_is_a_400_naming_it(client, tenants):
    r = client.post(
        "/api/rag/search",
        json={"collection": RED, "query": "ledger", "filter": {"page": {"$near": 3}}},
    )
    assert r.status_code == 400
    assert r.json()["error"].startswith('filter.page: unknown operator "$near"')


def test_stats_and_documents_are_per_collection(client, tenants):
    for name in (RED, BLUE):
        stats = client.get("/api/rag/stats", params={"collection": name})
        assert stats.status_code == 200, stats.text
        assert stats.json()["documents"] == 12 and stats.json()["chunks"] == 60
        doc = client.get("/api/rag/documents/tn-doc-3", params={"collection": name})
        assert doc.status_code == 200
        assert all(c["chunk"].startswith(name) for c in doc.json()["chunks"])
    assert client.get("/api/rag/documents/tn-doc-3").status_code == 404  # not in default


def test_deleting_a_collection_removes_its_documents_only(client, tenants):
    name = "tenant-gone"
    client.delete(f"/api/rag/collections/{name}")
    assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
    vector = _unit(np.random.default_rng(5))
    doc = {
        "collection": name,
        "doc_id": "tn-doc-0",
        "chunks": [{"chunk_id": "tn-0-0", "chunk": "gone", "embedding": vector.tolist()}],
    }
    assert client.post("/api/rag/documents", json=doc).status_code == 200
    r = client.delete(f"/api/rag/collections/{name}")
    assert r.status_code == 200, r.text
    assert client.get(f"/api/rag/collections/{name}").status_code == 404
    r = client.post("/api/rag/search", json={"collection": name, "embedding": vector.tolist()})
    assert r.status_code == 404 and name in r.json()["error"]
    # the other tenants still hold the same ids
    assert client.get("/api/rag/documents/tn-doc-0", params={"collection": RED}).status_code == 200
    assert _search(client, RED, vector)["rows"]


def test_the_default_collection_cannot_be_deleted_and_names_are_checked(client):
    assert client.delete("/api/rag/collections/default").status_code == 409
    r = client.post("/api/rag/collections", json={"name": "Bad Name"})
    assert r.status_code == 400 and "name" in r.json()["error"]
    r = client.post("/api/rag/collections", json={"name": RED})
    assert r.status_code == 409
    for bad in (client.get("/api/rag/collections/a%00"), client.delete("/api/rag/collections/A")):
        # (before: the pattern of a space's or profile's name)
        assert bad.json() == {"error": "name must match ^[a-z0-9][a-z0-9_-]{0,62}$"}


def _as(service: ServiceProcess, key: str) -> httpx.Client:
    return httpx.Client(
        base_url=service.base_url, timeout=60, headers={"Authorization": f"Bearer {key}"}
    )


def test_a_scoped_key_reads_and_writes_its_collections_only(service, tenants):
    query = _unit(np.random.default_rng(7)).tolist()
    doc = {"doc_id": "tn-scoped", "chunks": [{"chunk": "scoped", "embedding": query}]}
    with _as(service, SCOPED_KEY) as scoped:
        assert (
            scoped.post("/api/rag/search", json={"collection": RED, "embedding": query}).status_code
            == 200
        )
        assert scoped.post("/api/rag/documents", json={**doc, "collection": RED}).status_code == 200
        names = [c["name"] for c in scoped.get("/api/rag/collections").json()["collections"]]
        assert names == [RED]
        refused = [
            scoped.post("/api/rag/search", json={"collection": BLUE, "embedding": query}),
            scoped.post("/api/rag/search", json={"embedding": query}),  # default
            scoped.post(
                "/api/rag/explain",
                json={"collection": BLUE, "embedding": query, "chunk_id": "tn-0-0"},
            ),
            scoped.get("/api/rag/stats", params={"collection": BLUE}),
            scoped.get("/api/rag/collections/" + BLUE),
            scoped.get("/api/rag/documents/tn-doc-0", params={"collection": BLUE}),
            scoped.post("/api/rag/documents", json={**doc, "collection": BLUE}),
            scoped.delete("/api/rag/documents/tn-doc-0", params={"collection": BLUE}),
            scoped.post("/api/rag/collections", json={"name": "tenant-new"}),
            scoped.delete("/api/rag/collections/" + RED),
        ]
        for r in refused:
            assert r.status_code == 403, (r.request.url, r.text)
    with _as(service, SCOPED_READ_KEY) as reader:
        assert reader.get("/api/rag/stats", params={"collection": RED}).status_code == 200
        r = reader.post("/api/rag/documents", json={**doc, "collection": RED})
        assert r.status_code == 403
    with _as(service, "not-a-key") as stranger:
        assert stranger.get("/api/rag/stats", params={"collection": RED}).status_code == 401
    # BLUE's copy of the id is untouched by all of it
    blue = _as(service, WRITE_KEY).get("/api/rag/documents/tn-doc-0", params={"collection": BLUE})
    assert blue.status_code == 200 and blue.json()["chunks"][0]["chunk"].startswith(BLUE)


def _queued(client: httpx.Client, collection: str, doc_id: str) -> int:
    doc = {"doc_id": doc_id, "collection": collection, "chunks": [{"chunk": "a job's document"}]}
    r = client.post("/api/rag/documents", params={"async": "true"}, json=doc)
    assert r.status_code == 202, r.text
    return int(r.headers["location"].rsplit("/", 1)[1])


def test_a_scoped_key_sees_only_its_collections_jobs(service, tenants):
    """Another tenant's job is no job at all to a scoped key (before: a 403 naming the
    other collection, so job ids told which tenants exist), and its listing's limit counts
    its own jobs (before: filtered after the limit, an empty page)."""
    admin = _as(service, WRITE_KEY)
    red = _queued(admin, RED, "tn-job-red")
    blue = _queued(admin, BLUE, "tn-job-blue")
    with _as(service, SCOPED_KEY) as scoped:
        assert scoped.get(f"/api/rag/jobs/{red}").status_code == 200
        for r in (scoped.get(f"/api/rag/jobs/{blue}"), scoped.post(f"/api/rag/jobs/{blue}/cancel"),
                  scoped.get(f"/api/rag/jobs/{2**40}")):  # fmt: skip
            assert r.status_code == 404 and BLUE not in r.text, r.text
        listed = scoped.get("/api/rag/jobs", params={"limit": 1}).json()["jobs"]
        assert [job["id"] for job in listed] == [red]
    r = admin.get("/api/rag/jobs", params={"collection": "a\x00"})
    assert r.status_code == 400 and r.json()["error"].startswith("collection must match")
