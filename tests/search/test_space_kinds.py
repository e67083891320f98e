"""Every kind of space (dense, sparse by cosine and by inner product, multivector by MaxSim)
alone and mixed, checked against a brute force from the ranking rule with either
strategy: the top-k is exact. Chunks are stored and read back through the API; searches
run through the service's own pipeline (in process, so that a strategy can be forced)."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import numpy as np
import psycopg
import pytest

from app.db.pool import configure_connection
from app.search.knobs import EngineKnobs
from app.search.request import parse_search_request
from app.search.service import run_search
from conftest import settings_for_tests
from helpers import AS_OF, assert_exact_topk, cosine, maxsim, recency, sparse_similarity
from kinds_corpus import SPACES, VOCABULARY, kinds_corpus, value_json, vector_of

SETTINGS = settings_for_tests(hnsw_ef_search=40)


@pytest.fixture(scope="module")
def corpus(client) -> dict[str, dict[str, Any]]:
    for name, body in SPACES.items():
        r = client.post("/api/rag/spaces", json={"name": name, **body})
        assert r.status_code == 201, r.text
    docs, chunks = kinds_corpus()
    for doc in docs:
        r = client.post("/api/rag/documents", json=doc)
        assert r.status_code == 200, r.text
    return chunks


def _similarity(space: str, query: Any, value: Any) -> float:
    if space == "kd":
        return cosine(query, value)
    if space == "km":
        return maxsim(query, value)
    return sparse_similarity(query, value, SPACES[space].get("metric", "cosine"))


def _oracle(chunks: dict[str, dict[str, Any]], query: dict[str, Any],
            weights: tuple[float, float, float], tag: str | None) -> dict[str, float]:  # fmt: skip
    w_cos, w_rec, w_sig = weights
    share = 1 / len(query)
    scores = {}
    for chunk_id, chunk in chunks.items():
        if tag and tag not in chunk["tags"]:
            continue
        sem = sum(share * _similarity(s, q, chunk["values"][s])
                  for s, q in query.items() if s in chunk["values"])  # fmt: skip
        days = max(0.0, (AS_OF - chunk["created"]).total_seconds() / 86400)
        scores[chunk_id] = (
            w_cos * sem + w_rec * recency(days, "inverse", 1.0) + w_sig * chunk["signal"]
        )
    return scores


def _search(db_url: str, body: dict[str, Any], strategy: str) -> tuple[list[Any], dict]:
    async def run() -> tuple[list[Any], dict]:
        async with await psycopg.AsyncConnection.connect(db_url, autocommit=True) as conn:
            await configure_connection(conn)
            request = parse_search_request(body)
            outcome = await run_search(conn, request, SETTINGS, EngineKnobs(strategy=strategy))
            return list(outcome.page), outcome.ranking.meta

    return asyncio.run(run())


MIXES = [("kd",), ("ks",), ("kip",), ("km",), ("kd", "ks", "km"), ("kd", "kip", "km")]


@pytest.mark.parametrize("strategy", ["scan", "threshold"])
@pytest.mark.parametrize("spaces", MIXES, ids=["+".join(m) for m in MIXES])
@pytest.mark.parametrize("weights", [(1.0, 0.0, 0.0), (0.5, 0.3, 0.2)])
def test_every_kind_alone_and_mixed_ranks_as_the_brute_force(
    corpus, db_url, strategy, spaces, weights
):
    rng = np.random.default_rng(len("".join(spaces)) + int(10 * weights[0]))
    for tag in (None, "green"):
        query = {s: vector_of(rng, s) for s in spaces}
        w_cos, w_rec, w_sig = weights
        body = {
            "embeddings": {s: value_json(s, v) for s, v in query.items()}, "k": 10,
            "w_cos": w_cos, "w_rec": w_rec, "w_sig": w_sig, "max_per_source": 0,
            "as_of": AS_OF.isoformat(), "profile": "default",
            **({"tags_any": [tag]} if tag else {}),
        }  # fmt: skip
        rows, meta = _search(db_url, body, strategy)
        assert meta["strategy"] == strategy, meta
        scores = _oracle(corpus, query, weights, tag)
        assert_exact_topk([dict(r) for r in rows], scores, 10)
        assert all(math.isfinite(r["score"]) for r in rows)


def test_per_space_scores_and_explain_give_each_kinds_similarity(client, corpus):
    rng = np.random.default_rng(5)
    query = {s: vector_of(rng, s) for s in SPACES}
    body = {"embeddings": {s: value_json(s, v) for s, v in query.items()}, "k": 5,
            "explain": True, "max_per_source": 0, "profile": "default"}  # fmt: skip
    answer = client.post("/api/rag/search", json=body).json()
    assert len(answer["rows"]) == 5
    for row in answer["rows"]:
        chunk = corpus[row["chunk_id"]]
        for space, sim in row["per_space_scores"].items():
            if space in chunk["values"]:
                assert sim == pytest.approx(
                    _similarity(space, query[space], chunk["values"][space]), abs=1e-4
                )
            else:
                assert sim is None
    target = answer["rows"][2]["chunk_id"]
    explained = client.post("/api/rag/explain", json={**body, "chunk_id": target}).json()
    assert explained["stage"] == "included" and explained["position"] == 3
    assert explained["rank"] == 3


@pytest.mark.parametrize("space", list(SPACES))
@pytest.mark.parametrize("exact", [True, False])
def test_single_space_search_of_each_kind(client, corpus, space, exact):
    rng = np.random.default_rng(9)
    query = vector_of(rng, space)
    r = client.post(
        f"/api/rag/search/space/{space}",
        json={"query_embedding": value_json(space, query), "top_k": 5, "exact": exact},
    )
    assert r.status_code == 200, r.text
    expected = sorted(
        ((c, _similarity(space, query, chunk["values"][space]))
         for c, chunk in corpus.items() if space in chunk["values"]),
        key=lambda item: (-item[1], item[0]),
    )[:5]  # fmt: skip
    results = r.json()["results"]
    assert [row["chunk_id"] for row in results] == [c for c, _ in expected]
    for row, (_, sim) in zip(results, expected, strict=True):
        assert row["similarity"] == pytest.approx(sim, abs=1e-4)


def test_stored_vectors_of_each_kind_read_back(client, corpus):
    r = client.get("/api/rag/documents/k-0?include_embeddings=true")
    assert r.status_code == 200, r.text
    stored = r.json()
    chunk = next(c for c in stored["chunks"] if c["chunk_id"] == "k-0-1")
    values = corpus["k-0-1"]["values"]
    for space, value in values.items():
        given = value_json(space, value)
        read = chunk["embeddings"][space]
        if space in ("ks", "kip"):
            assert read["indices"] == given["indices"] and read["dim"] == VOCABULARY
            assert read["values"] == pytest.approx(given["values"], rel=1e-6)
        else:
            assert np.allclose(np.asarray(read), np.asarray(given), atol=1e-6)
    spaces = {s["name"]: s for s in client.get("/api/rag/spaces").json()["spaces"]}
    assert (spaces["ks"]["kind"], spaces["kip"]["metric"], spaces["km"]["max_tokens"]) == (
        "sparse", "inner_product", 8)  # fmt: skip


@pytest.mark.parametrize("weights", [(1.0, 0.0, 0.0), (0.5, 0.3, 0.2)])
def test_explain_ranks_each_chunk_where_the_exact_search_puts_it(client, corpus, weights):
    rng = np.random.default_rng(71)
    query = {s: value_json(s, vector_of(rng, s)) for s in SPACES}
    w_cos, w_rec, w_sig = weights
    weighted = {"w_cos": w_cos, "w_lex": 0, "w_rec": w_rec, "w_sig": w_sig}
    body = {"embeddings": query, "as_of": AS_OF.isoformat(), "k": 30, "exact": True,
            "max_per_source": 0, **weighted}  # fmt: skip
    rows = client.post("/api/rag/search", json=body).json()["rows"]
    assert len(rows) == 30
    for position, row in enumerate(rows, start=1):
        explained = client.post("/api/rag/explain", json={**body, "chunk_id": row["chunk_id"]})
        assert explained.status_code == 200, explained.text
        assert explained.json()["rank"] == position, row["chunk_id"]
