"""The same corpus on one node and on the cluster answers every search alike: the same
rows, scores within 1e-9, the same explanations and metadata (wall-clock times aside).
Collections live whole on one worker each (routed searches)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import psycopg
import pytest

from app.cluster.local import LocalCluster
from helpers import call_topk

from .oracle import AUX, AUX_DIMS, corpus, differences, searches, service_client, store, unit

PREFIX = "orc"
# a collection past the scan threshold (2,000 chunks: the threshold search runs) and a
# small one (scanned)
COLLECTIONS = {"oracle-large": (1, 130, 20), "oracle-small": (2, 30, 10)}


@pytest.fixture(scope="module")
def services(db_url: str, cluster: LocalCluster) -> Iterator[dict[str, httpx.Client]]:
    with service_client(db_url) as single, service_client(cluster.url) as clustered:
        clients = {"single": single, "cluster": clustered}
        for client in clients.values():
            added = client.post("/api/rag/spaces", json={"name": AUX, "dims": AUX_DIMS})
            assert added.status_code in (201, 409), added.text
            for name, (seed, n_docs, per_doc) in COLLECTIONS.items():
                store(client, name, corpus(seed, PREFIX, n_docs, per_doc))
        yield clients


def both(services: dict[str, httpx.Client], path: str, body: dict[str, Any]) -> list[Any]:
    answers = []
    for client in services.values():
        response = client.post(path, json=body)
        assert response.status_code == 200, (path, body, response.text)
        answers.append(response.json())
    return answers


@pytest.mark.parametrize("collection", sorted(COLLECTIONS))
def test_every_search_mode_answers_alike(services, collection):
    strategies = set()
    for body in searches(PREFIX):
        single, clustered = both(services, "/api/rag/search", {**body, "collection": collection})
        assert single["rows"], body
        assert differences(single, clustered) == [], body
        strategies.add(clustered["query_metadata"]["strategy"])
    expected = {"scan", "threshold", "rrf"} if collection == "oracle-large" else {"scan", "rrf"}
    assert strategies == expected


@pytest.mark.parametrize("collection", sorted(COLLECTIONS))
def test_why_not_explains_alike(services, collection):
    bodies = searches(PREFIX)
    top = both(services, "/api/rag/search", {**bodies[0], "collection": collection, "k": 40})[0]
    chunk_ids = [row["chunk_id"] for row in top["rows"]][::7]
    for body in (bodies[0], bodies[3], bodies[11], bodies[16]):
        for chunk_id in chunk_ids:
            asked = {**body, "collection": collection, "chunk_id": chunk_id}
            single, clustered = both(services, "/api/rag/explain", asked)
            assert differences(single, clustered) == [], (body, chunk_id)


@pytest.mark.parametrize("collection", sorted(COLLECTIONS))
def test_one_space_searches_answer_alike(services, collection):
    for space, vector in (("default", unit(5, 384)), (AUX, unit(6, AUX_DIMS))):
        for exact in (True, False):
            body = {"query_embedding": vector, "top_k": 12, "exact": exact,
                    "collection": collection, "tags_any": ["alpha", "delta"]}  # fmt: skip
            single, clustered = both(services, f"/api/rag/search/space/{space}", body)
            assert single["results"]
            assert differences(single, clustered) == [], (space, exact)


def test_collections_and_documents_read_alike(services):
    """(Their creation times aside: each database stamped its own.)"""
    counts = [
        {(c["name"], c["documents"], c["chunks"]) for c in answer["collections"]
         if c["name"] in COLLECTIONS}
        for answer in (client.get("/api/rag/collections").json() for client in services.values())
    ]  # fmt: skip
    assert counts[0] == counts[1] and len(counts[0]) == len(COLLECTIONS)
    path = f"/api/rag/documents/{PREFIX}-doc-3?collection=oracle-large&include_embeddings=true"
    single, clustered = (client.get(path).json() for client in services.values())
    for answer in (single, clustered):
        for stamp in ("created_at", "updated_at"):
            answer.pop(stamp, None)
    assert single["chunks"]
    assert differences(single, clustered) == []


def test_sql_clients_get_the_same_answer(services, db_url, cluster):
    """api.rag_topk_weighted calls api.topk inside itself, where Citus routes nothing: the
    call is sent on to the worker holding the collection."""
    query = {"default": np.asarray(unit(9, 384), np.float32)}
    answers = []
    for url in (db_url, cluster.url):
        with psycopg.connect(url, autocommit=True) as conn:
            answers.append(
                call_topk(
                    conn,
                    query,
                    {"default": 1.0},
                    (0.7, 0.2, 0.1),
                    10,
                    filters={"tags_any": ["beta"]},
                    collection="oracle-large",
                )
            )
    assert answers[0]["rows"]
    assert differences(answers[0]["rows"], answers[1]["rows"]) == []


def test_writes_change_both_alike(services):
    """A document deleted, signals given and a collection dropped through the coordinator
    leave the cluster as they leave one node."""
    name = "oracle-writes"
    for client in services.values():
        store(client, name, corpus(3, "wr", 12, 5))
    deleted = [client.delete(f"/api/rag/documents/wr-doc-2?collection={name}")
               for client in services.values()]  # fmt: skip
    assert [d.status_code for d in deleted] == [200, 200], [d.text for d in deleted]
    assert [d.json()["deleted_chunks"] for d in deleted] == [5, 5]
    missing = [client.delete(f"/api/rag/documents/wr-doc-2?collection={name}")
               for client in services.values()]  # fmt: skip
    assert [m.status_code for m in missing] == [404, 404]
    updates = {"collection": name, "updates": [
        {"chunk_id": "wr-doc-4-1", "add_volume": 3},
        {"chunk_id": "wr-doc-5-0", "signal": 0.9, "confidence": 2},
    ]}  # fmt: skip
    single, clustered = both(services, "/api/rag/signals", updates)
    assert single["updated"] == 2 and differences(single, clustered) == []
    unknown = {**updates, "updates": [{"chunk_id": "wr-doc-2-0", "add_volume": 1}]}
    assert [c.post("/api/rag/signals", json=unknown).status_code
            for c in services.values()] == [404, 404]  # fmt: skip
    for body in searches("wr")[:3]:
        single, clustered = both(services, "/api/rag/search", {**body, "collection": name})
        assert single["rows"] and differences(single, clustered) == [], body
    dropped = [client.delete(f"/api/rag/collections/{name}") for client in services.values()]
    assert [d.status_code for d in dropped] == [200, 200], [d.text for d in dropped]
    assert dropped[0].json() == dropped[1].json()
    for client in services.values():
        gone = client.post("/api/rag/search", json={**searches("wr")[0], "collection": name})
        assert gone.status_code == 404
