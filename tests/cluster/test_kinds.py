"""Every kind of space on the cluster: the same corpus, with a dense, two sparse and a
multivector space, stored on one node and on the cluster answers every search alike
(weighted over each kind alone and mixed, RRF, exact or not, explain, single-space
searches: so a sparse space's term counts, which weigh a question's terms, are the same),
and deleting a document changes both alike."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import pytest

from app.cluster.local import LocalCluster
from helpers import AS_OF
from kinds_corpus import SPACES, kinds_corpus, value_json, vector_of

from .oracle import differences, service_client

COLLECTION = "kinds"
MIXES = [("kd",), ("ks",), ("kip",), ("km",), ("kd", "ks", "km"), ("kd", "kip", "km")]


@pytest.fixture(scope="module")
def services(db_url: str, cluster: LocalCluster) -> Iterator[dict[str, httpx.Client]]:
    with service_client(db_url) as single, service_client(cluster.url) as clustered:
        clients = {"single": single, "cluster": clustered}
        docs, _ = kinds_corpus(300)  # 2,400 chunks: past the scan threshold, both strategies
        for client in clients.values():
            for name in SPACES:
                r = client.post("/api/rag/spaces", json={"name": name, **SPACES[name]})
                assert r.status_code == 201, r.text
            assert client.post("/api/rag/collections", json={"name": COLLECTION}).status_code == 201
            for doc in docs:
                r = client.post("/api/rag/documents", json={**doc, "collection": COLLECTION})
                assert r.status_code == 200, r.text
        yield clients
        # the cluster is the session's: leave it as found
        assert clustered.delete(f"/api/rag/collections/{COLLECTION}").status_code == 200
        for name in SPACES:
            assert clustered.delete(f"/api/rag/spaces/{name}").status_code == 200


def both(services: dict[str, httpx.Client], path: str, body: dict[str, Any]) -> list[Any]:
    answers = []
    for client in services.values():
        response = client.post(path, json={**body, "collection": COLLECTION})
        assert response.status_code == 200, (path, body, response.text)
        answers.append(response.json())
    return answers


def _query(seed: int, spaces: tuple[str, ...]) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    return {s: value_json(s, vector_of(rng, s)) for s in spaces}


def bodies() -> list[dict[str, Any]]:
    found = []
    for n, spaces in enumerate(MIXES):
        base = {"embeddings": _query(n, spaces), "as_of": AS_OF.isoformat(), "k": 10}
        found += [
            {**base, "w_cos": 1, "w_lex": 0, "w_rec": 0, "w_sig": 0},
            {**base, "w_cos": 0.5, "w_lex": 0, "w_rec": 0.3, "w_sig": 0.2},
            {**base, "exact": True, "tags_any": ["red"]},
            {**base, "fusion": "rrf", "explain": True, "include_per_space_scores": True},
        ]
    return found


def test_every_kind_alone_and_mixed_answers_alike(services):
    strategies = set()
    for body in bodies():
        single, clustered = both(services, "/api/rag/search", body)
        assert single["rows"], body
        assert differences(single, clustered) == [], body
        strategies.add(clustered["query_metadata"]["strategy"])
    assert strategies == {"scan", "threshold", "rrf"}


def test_why_not_explains_alike(services):
    body = bodies()[-3]  # both kinds mixed, weighted
    top = both(services, "/api/rag/search", {**body, "k": 30})[0]
    for chunk_id in [row["chunk_id"] for row in top["rows"]][::6]:
        single, clustered = both(services, "/api/rag/explain", {**body, "chunk_id": chunk_id})
        assert differences(single, clustered) == [], chunk_id


@pytest.mark.parametrize("space", sorted(SPACES))
def test_one_space_searches_of_each_kind_answer_alike(services, space):
    query = _query(50, (space,))[space]
    for exact in (True, False):
        body = {"query_embedding": query, "top_k": 8, "exact": exact}
        single, clustered = both(services, f"/api/rag/search/space/{space}", body)
        assert single["results"]
        assert differences(single, clustered) == [], (space, exact)


def test_a_deleted_document_leaves_no_terms_or_tokens(services):
    body = {"embeddings": _query(7, ("ks", "km")), "as_of": AS_OF.isoformat(), "k": 40}
    for client in services.values():
        r = client.delete("/api/rag/documents/k-5", params={"collection": COLLECTION})
        assert r.status_code == 200, r.text
    single, clustered = both(services, "/api/rag/search", body)
    assert not any(row["chunk_id"].startswith("k-5-") for row in clustered["rows"])
    assert differences(single, clustered) == []


BM25_TEXTS = {
    "espresso": "Espresso forces hot water through finely ground coffee at nine bars.",
    "cold": "Cold brew steeps coarse coffee grounds in cold water for twelve hours.",
    "tea": "Green tea is steeped briefly in water below boiling point.",
    "bread": "Sourdough bread rises slowly with a wild yeast starter.",
}


def test_a_bm25_space_weighs_terms_by_the_collections_counts_alike(services):
    space = {"name": "terms", "kind": "sparse", "dims": 30522, "embedder": {"kind": "bm25"}}
    for client in services.values():
        assert client.post("/api/rag/spaces", json=space).status_code == 201
        assert client.post("/api/rag/collections", json={"name": "bm25"}).status_code == 201
        for doc_id, text in BM25_TEXTS.items():
            doc = {"doc_id": doc_id, "text": text, "collection": "bm25",
                   "created_at": AS_OF.isoformat()}  # fmt: skip
            r = client.post("/api/rag/documents", json=doc)
            assert r.status_code == 200, r.text
    body = {"query": "steeped in cold water", "active_spaces": ["terms"], "w_cos": 1,
            "w_lex": 0, "w_rec": 0, "w_sig": 0, "include_per_space_scores": True,
            "collection": "bm25", "as_of": AS_OF.isoformat()}  # fmt: skip
    answers = []
    for step in ("stored", "tea deleted"):
        if step == "tea deleted":
            for client in services.values():
                assert client.delete("/api/rag/documents/tea?collection=bm25").status_code == 200
        single, clustered = [c.post("/api/rag/search", json=body).json() for c in services.values()]
        assert single["rows"][0]["doc_id"] == "cold", step
        assert differences(single, clustered) == [], step
        answers.append(single)
    # the counts moved: "steeped" is in one document fewer, so it weighs more
    assert answers[0]["rows"][0]["per_space_scores"] != answers[1]["rows"][0]["per_space_scores"]
    clustered = services["cluster"]
    assert clustered.delete("/api/rag/collections/bm25").status_code == 200
    assert clustered.delete("/api/rag/spaces/terms").status_code == 200
