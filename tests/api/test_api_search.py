"""POST /api/rag/search over HTTP: the contract clients rely on, field by field."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from helpers import AS_OF, assert_exact_topk, brute_force, random_corpus

DIMS = 384
ROW_FIELDS = {
    "chunk_id", "doc_id", "src", "title", "chunk", "model", "score", "cos_dist", "l2_dist", "scale",
    "days_old", "created_at",
}  # fmt: skip


@pytest.fixture(scope="module")
def corpus(client):
    """200 chunks in 10 documents under one src prefix, with a second space 'aux'."""
    prefix = "srch"
    response = client.post("/api/rag/spaces", json={"name": "aux", "dims": 8, "model": "toy"})
    assert response.status_code in (201, 409)
    docs, chunks = random_corpus(
        np.random.default_rng(1), prefix, n_docs=10, chunks_per_doc=20,
        spaces={"default": DIMS, "aux": 8},
    )  # fmt: skip
    for doc in docs:
        for chunk in doc["chunks"]:
            chunk["embedding"] = chunk["embeddings"].pop("default", None)
            if chunk["embedding"] is None:
                del chunk["embedding"]
        assert client.post("/api/rag/documents", json=doc).status_code == 200
    return {"prefix": f"https://{prefix}.example/", "chunks": chunks}


def query_vector(seed: int = 0) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(DIMS)
    return (v / np.linalg.norm(v)).tolist()


def search(client, **body):
    return client.post("/api/rag/search", json=body)


def test_response_has_exactly_the_contract_shape(client, corpus):
    r = search(client, embedding=query_vector(), k=5, w_rec=0.1, w_sig=0.1,
               src_prefix=corpus["prefix"])  # fmt: skip
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is True
    assert body["k"] == 5
    assert body["weights"] == pytest.approx({"w_cos": 0.8, "w_rec": 0.1, "w_sig": 0.1})
    assert set(body["weights"]) == {"w_cos", "w_rec", "w_sig"}
    assert len(body["rows"]) == 5
    for row in body["rows"]:
        assert set(row) == ROW_FIELDS
        assert isinstance(row["chunk_id"], str) and isinstance(row["score"], float)
        assert row["created_at"].endswith("+00:00")
    scores = [row["score"] for row in body["rows"]]
    assert scores == sorted(scores, reverse=True)
    meta = body["query_metadata"]
    assert meta["exact"] is True and meta["strategy"] in ("scan", "threshold")


def test_defaults_k_5_and_server_weights(client, corpus):
    body = search(client, embedding=query_vector(1), src_prefix=corpus["prefix"]).json()
    assert body["k"] == 5 and len(body["rows"]) == 5
    assert body["weights"] == pytest.approx({"w_cos": 0.8, "w_rec": 0.1, "w_sig": 0.1})


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"w_rec": 0.6, "w_sig": 0.6}, {"w_cos": 0.0, "w_rec": 0.5, "w_sig": 0.5}),
        ({"w_rec": 0.3, "w_sig": 0.2}, {"w_cos": 0.5, "w_rec": 0.3, "w_sig": 0.2}),
        ({"w_rec": 0, "w_sig": 0}, {"w_cos": 1.0, "w_rec": 0.0, "w_sig": 0.0}),
        (
            {"w_rec": 0.2, "w_sig": 0.2, "w_cos": 0.2},
            {"w_cos": 1 / 3, "w_rec": 1 / 3, "w_sig": 1 / 3},
        ),
    ],
)
def test_weights_echo_the_weights_used(client, corpus, given, expected):
    body = search(client, embedding=query_vector(2), src_prefix=corpus["prefix"], **given).json()
    assert body["weights"] == pytest.approx(expected)


def test_rows_are_the_exact_top_k(client, corpus):
    q = np.asarray(query_vector(3), dtype=np.float32)
    for weights in [(0.8, 0.1, 0.1), (0.5, 0.3, 0.2), (0.0, 1.0, 0.0)]:
        body = search(
            client, embedding=q.tolist(), k=12, w_cos=weights[0], w_rec=weights[1],
            w_sig=weights[2], src_prefix=corpus["prefix"], as_of=AS_OF.isoformat(),
        ).json()  # fmt: skip
        expected = brute_force(
            corpus["chunks"], {"default": q}, {"default": 1.0}, weights,
            filters={"src_prefix": corpus["prefix"]},
        )  # fmt: skip
        assert_exact_topk(body["rows"], expected, 12)


def test_several_spaces_with_space_weights(client, corpus):
    q = {"default": np.asarray(query_vector(4), np.float32),
         "aux": np.asarray(np.ones(8) / np.sqrt(8), np.float32)}  # fmt: skip
    body = search(
        client, embedding=q["default"].tolist(), embeddings={"aux": q["aux"].tolist()},
        space_weights={"default": 1, "aux": 3}, k=10, w_rec=0.1, w_sig=0.1,
        src_prefix=corpus["prefix"], as_of=AS_OF.isoformat(),
    ).json()  # fmt: skip
    assert body["query_metadata"]["space_weights"] == pytest.approx({"default": 0.25, "aux": 0.75})
    expected = brute_force(
        corpus["chunks"], q, {"default": 0.25, "aux": 0.75}, (0.8, 0.1, 0.1),
        filters={"src_prefix": corpus["prefix"]},
    )  # fmt: skip
    assert_exact_topk(body["rows"], expected, 10)


def test_filters(client, corpus):
    q = query_vector(5)
    doc = "srch-doc-3"
    rows = search(client, embedding=q, k=50, doc_ids=[doc]).json()["rows"]
    assert rows and {r["doc_id"] for r in rows} == {doc}
    rows = search(client, embedding=q, k=50, src_prefix=corpus["prefix"] + "b/").json()["rows"]
    assert rows and all(r["src"].startswith(corpus["prefix"] + "b/") for r in rows)
    tagged = {c.chunk_id for c in corpus["chunks"] if "alpha" in c.tags}
    rows = search(
        client, embedding=q, k=50, tags_any=["alpha"], src_prefix=corpus["prefix"]
    ).json()["rows"]
    assert rows and {r["chunk_id"] for r in rows} <= tagged
    after, before = AS_OF - timedelta(days=300), AS_OF - timedelta(days=100)
    rows = search(
        client, embedding=q, k=50, src_prefix=corpus["prefix"],
        created_after=after.isoformat(), created_before=before.isoformat(),
    ).json()["rows"]  # fmt: skip
    in_range = {c.chunk_id for c in corpus["chunks"] if after <= c.created_at < before}
    assert rows and {r["chunk_id"] for r in rows} <= in_range
    rows = search(client, embedding=q, k=50, src_prefix=corpus["prefix"], min_score=0.3).json()[
        "rows"
    ]
    assert all(r["score"] >= 0.3 for r in rows)


def test_recency_function_is_chosen_per_request(client, corpus):
    q = query_vector(6)
    common = {"embedding": q, "k": 5, "w_rec": 1, "w_sig": 0, "w_cos": 0,
              "src_prefix": corpus["prefix"], "as_of": AS_OF.isoformat()}  # fmt: skip
    inverse = search(client, **common).json()["rows"]
    expo = search(
        client, **common, recency={"function": "exponential", "half_life_days": 7}
    ).json()["rows"]
    for row in inverse:
        assert row["score"] == pytest.approx(1 / (1 + row["days_old"]))
    for row in expo:
        assert row["score"] == pytest.approx(0.5 ** (row["days_old"] / 7))


EMBEDDING_REQUIRED = {"error": "embedding (number[]) required"}
K_RANGE = {"error": "k must be an integer in 1..50"}
GOAL_UNREAD = {
    "error": "goal is read only with include_purpose_alignment: true (to rank "
    "by a goal: POST /api/rag/search/purpose)"
}
BLANK_QUERY = {"error": "query must be a non-empty string of at most 4000 characters"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, EMBEDDING_REQUIRED),
        ({"k": 5}, EMBEDDING_REQUIRED),
        ({"embedding": []}, EMBEDDING_REQUIRED),
        ({"embedding": "0.1,0.2"}, EMBEDDING_REQUIRED),
        ({"embedding": ["a", "b"]}, {"error": "embedding[0] must be a number (got a string)"}),
        ({"embedding": [0.1, None]}, {"error": "embedding[1] must be a number (got null)"}),
        ({"embedding": [True, False]}, {"error": "embedding[0] must be a number (got a boolean)"}),
        (
            {"embedding": [0.1] * 16_016},
            {"error": "embedding must have at most 16,000 numbers (got 16,016)"},
        ),
        ({"embedding": None}, EMBEDDING_REQUIRED),
        ({"query": "   "}, BLANK_QUERY),  # before, the embedding's rule: query was given
        ({"query": ""}, BLANK_QUERY),
        ({"embedding": [0.1] * DIMS, "k": 0}, K_RANGE),
        ({"embedding": [0.1] * DIMS, "k": 51}, K_RANGE),
        ({"embedding": [0.1] * DIMS, "k": -3}, K_RANGE),
        ({"embedding": [0.1] * DIMS, "k": 2.5}, K_RANGE),
        ({"embedding": [0.1] * DIMS, "k": "5"}, K_RANGE),
        ({"embedding": [0.1] * DIMS, "k": None}, None),
        ({"embedding": [0.1] * DIMS, "goal": "nosuch"}, GOAL_UNREAD),  # it was ignored
    ],
)
def test_contract_errors_are_exact(client, corpus, body, expected):
    r = client.post("/api/rag/search", json=body)
    if expected is None:
        assert r.status_code == 200
        return
    assert r.status_code == 400
    assert r.json() == expected


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ({"w_rec": 1.5}, "w_rec must be a finite number in [0,1]"),
        ({"w_sig": -0.1}, "w_sig must be a finite number in [0,1]"),
        ({"w_rec": "0.5"}, "w_rec must be a finite number in [0,1]"),
        ({"w_cos": 3}, "w_cos must be a finite number in [0,1]"),
        ({"w_rec": 0, "w_sig": 0, "w_cos": 0}, "weights must not all be 0"),
        ({"space_weights": {"default": -1}}, "space_weights.default must be a finite number >= 0"),
        ({"space_weights": {"nope": 1}}, "space_weights.nope: the query has no vector for space"),
        ({"embeddings": {"nosuchspace": [0.1, 0.2]}}, "invalid_space"),
        ({"embeddings": {"aux": [0.1]}}, "embeddings.aux: expected 8 numbers, got 1"),
        ({"embeddings": {"default": [0.1] * DIMS}}, "give the default space vector once"),
        ({"src_prefix": ""}, "src_prefix must be a non-empty string"),
        ({"doc_ids": "doc-1"}, "doc_ids must be an array of non-empty strings"),
        ({"created_after": "yesterday"}, "created_after must be an ISO 8601 timestamp"),
        ({"min_score": "high"}, "min_score must be a finite number"),
        ({"recency": {"function": "cubic"}}, "recency.function"),
        ({"recency": {"function": "exponential"}}, "half_life_days is required"),
        ({"recency": {"function": "gaussian", "scale_days": 0}}, "recency.scale_days"),
        (
            {"recency": {"function": "exponential", "half_life_days": 0}},
            "recency.half_life_days must be a number of days in 1e-6..1e9",
        ),
        (
            {"recency": {"function": "cubic"}},
            "recency.function must be inverse, exponential, gaussian or linear",
        ),
        (
            {"recency": 7},
            "recency must be an object with function and half_life_days or scale_days",
        ),
        ({"rows": 5}, "unknown field 'rows'"),
    ],
)
def test_other_bad_fields_name_the_field_and_rule(client, corpus, extra, needle):
    r = client.post("/api/rag/search", json={"embedding": query_vector(), **extra})
    assert r.status_code == 400, r.text
    assert needle in r.json()["error"]


def test_wrong_dimension_says_expected_and_actual(client, corpus):
    r = client.post("/api/rag/search", json={"embedding": [0.5, 0.5, 0.5]})
    assert r.status_code == 400
    body = r.json()
    assert body["expected"] == DIMS and body["actual"] == 3
    assert "expected 384 numbers, got 3" in body["error"]


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        (b"{not json", "request body is not valid JSON"),
        (b'{"embedding": [NaN, 1]}', "embedding[0] is not finite: vectors hold finite numbers"),
        (b"[1, 2, 3]", "request body must be a JSON object"),
        (b"", "request body must be a JSON object"),
        (b'{"embedding": [1e39, 1]}', "embedding[0] is not finite"),
        (b'{"embedding": [' + b",".join([b"0"] * DIMS) + b"]}", "must not be all zeros"),
    ],
)
def test_malformed_bodies_get_a_400_not_a_stack_trace(client, corpus, raw, needle):
    r = client.post("/api/rag/search", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert needle in r.json()["error"]


def test_single_space_search_against_brute_force(client, corpus):
    q = np.asarray(query_vector(7), dtype=np.float32)
    body = {"query_embedding": q.tolist(), "top_k": 10, "exact": True,
            "src_prefix": corpus["prefix"]}  # fmt: skip
    r = client.post("/api/rag/search/space/default", json=body)
    assert r.status_code == 200
    results = r.json()["results"]
    sims = {
        c.chunk_id: float(q @ c.vectors["default"])
        for c in corpus["chunks"]
        if "default" in c.vectors
    }
    expected = sorted(sims, key=lambda cid: -sims[cid])[:10]
    assert [row["chunk_id"] for row in results] == expected
    for row in results:
        assert row["similarity"] == pytest.approx(sims[row["chunk_id"]], abs=1e-5)
    assert r.json()["query_metadata"]["strategy"] == "scan"
    ann = client.post("/api/rag/search/space/default", json={**body, "exact": False}).json()
    assert ann["query_metadata"]["strategy"] == "hnsw"
    assert len({row["chunk_id"] for row in ann["results"]} & set(expected)) >= 8
    cut = (sims[expected[4]] + sims[expected[5]]) / 2
    floor = client.post(
        "/api/rag/search/space/default", json={**body, "min_similarity": cut}
    ).json()
    assert [row["chunk_id"] for row in floor["results"]] == expected[:5]


def test_single_space_search_errors(client, corpus):
    r = client.post("/api/rag/search/space/default", json={"query_embedding": [0.1, 0.2]})
    assert r.status_code == 400
    assert r.json()["error"] == "query_dimension_mismatch"
    assert (r.json()["expected"], r.json()["actual"]) == (DIMS, 2)
    r = client.post("/api/rag/search/space/nope", json={"query_embedding": [0.1, 0.2]})
    assert r.status_code == 400
    assert r.json()["error"] == "invalid_space"
    assert "default" in r.json()["valid_spaces"] and "aux" in r.json()["valid_spaces"]
    for body, needle in [
        ({}, "query_embedding is required"),
        ({"query_embedding": ["x"]}, "query_embedding[0] must be a number (got a string)"),
        ({"query_embedding": query_vector(), "top_k": 0}, "top_k must be an integer in 1..50"),
        ({"query_embedding": query_vector(), "min_similarity": 2}, "min_similarity must be"),
    ]:
        r = client.post("/api/rag/search/space/default", json=body)
        assert r.status_code == 400 and needle in r.json()["error"], (body, r.text)


def test_exact_option_and_query_metadata(client, corpus):
    body = {"embedding": query_vector(8), "k": 5, "src_prefix": corpus["prefix"]}
    exact = client.post("/api/rag/search", json={**body, "exact": True}).json()
    meta = exact["query_metadata"]
    assert meta["strategy"] == "scan" and meta["exact"] is True
    assert meta["candidates_scanned"] == len(corpus["chunks"])
    assert meta["search_time_ms"] > 0 and meta["fell_back_to_scan"] is False
    default = client.post("/api/rag/search", json=body).json()
    assert [r["chunk_id"] for r in default["rows"]] == [r["chunk_id"] for r in exact["rows"]]
    r = client.post("/api/rag/search", json={**body, "exact": "yes"})
    assert r.status_code == 400 and r.json()["error"] == "exact must be true or false"
