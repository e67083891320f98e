"""Vectors that cannot give finite, meaningful similarities are refused wherever a vector
enters (stored chunks, queries, goals, purpose vectors), with a 400 naming the field and
what is wrong; nothing is stored; and every number a search answers is a JSON number."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

DIMS = 384
GOOD = [1 / math.sqrt(DIMS)] * DIMS


def _vector(value: float) -> list[float]:
    return [value] * DIMS


# (name, vector, the words the error must hold)
POISON = [
    ("huge", _vector(3e38), "its length (L2 norm) is"),
    ("overflowing squares", _vector(1e20), "its length (L2 norm) is"),
    ("tiny", _vector(1e-30), "its length (L2 norm) is"),
    ("subnormal", _vector(1e-45), "its length (L2 norm) is"),
    ("zero", _vector(0.0), "must not be all zeros"),
    ("beyond float32", [1e39, *GOOD[1:]], "[0] is not finite"),
    ("too long", _vector(0.01) + [0.01] * 15_632, "must have at most 16,000 numbers"),
    ("strings", ["0.1", *GOOD[1:]], "[0] must be a number (got a string)"),
    ("short", GOOD[:3], "expected 384 numbers, got 3"),
]
IDS = [name for name, _, _ in POISON]


def _document(vector: list[float]) -> dict[str, Any]:
    return {"doc_id": "poisoned", "chunks": [{"chunk_id": "poisoned-0", "chunk": "text",
                                              "embedding": vector}]}  # fmt: skip


def _finite_numbers(value: Any, where: str = "") -> None:
    """Every number is a finite JSON number: no NaN or Infinity, as numbers or strings."""
    if isinstance(value, dict):
        for key, item in value.items():
            _finite_numbers(item, f"{where}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            _finite_numbers(item, f"{where}[{n}]")
    elif isinstance(value, float):
        assert math.isfinite(value), where
    elif isinstance(value, str):
        assert value not in ("NaN", "Infinity", "-Infinity"), where


@pytest.mark.parametrize(("name", "vector", "words"), POISON, ids=IDS)
def test_a_poisoned_chunk_vector_is_refused_and_nothing_is_stored(client, name, vector, words):
    r = client.post("/api/rag/documents", json=_document(vector))
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error.startswith("chunks[0]") and "embedding" in error and words in error, error
    assert client.get("/api/rag/documents/poisoned").status_code == 404


@pytest.mark.parametrize(("name", "vector", "words"), POISON, ids=IDS)
def test_a_poisoned_query_vector_is_refused_on_every_route(client, name, vector, words):
    for url, field, body in [
        ("/api/rag/search", "embedding", {}),
        ("/api/rag/search", "embeddings.default", {}),
        ("/api/rag/search/space/default", "query_embedding", {}),
        ("/api/rag/search/purpose", "purpose_vector", {}),
        ("/api/rag/explain", "embedding", {"chunk_id": "x"}),
    ]:
        key = field.split(".")[0]
        value = {"default": vector} if "." in field else vector
        r = client.post(url, json={key: value, **body})
        assert r.status_code == 400, (url, r.text)
        said = r.json().get("message") or r.json()["error"]
        if name == "short" and "/api/rag/search/" in url:  # these routes' word for it
            assert r.json()["error"] == "query_dimension_mismatch", r.text
            assert said.startswith(f"{field} has 3 dimensions"), said
            continue
        assert words in said and field in said, (url, said)
    r = client.put("/api/rag/goals/poisoned", json={"embedding": vector})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.get("/api/rag/goals/poisoned").status_code == 404


def test_a_vector_at_the_limits_is_stored_and_every_answer_is_a_finite_number(client):
    body = _document(_vector(1e-9 / math.sqrt(DIMS) * 1.01))  # just above the shortest
    body["chunks"].append({"chunk_id": "poisoned-1", "chunk": "text",
                           "embedding": _vector(1e9 / math.sqrt(DIMS) * 0.99)})  # fmt: skip
    assert client.post("/api/rag/documents", json=body).status_code == 200
    try:
        for query in (GOOD, _vector(1e9 / math.sqrt(DIMS) * 0.99)):
            for exact in (False, True):
                r = client.post("/api/rag/search", json={
                    "embedding": query, "k": 10, "exact": exact, "explain": True,
                    "doc_ids": ["poisoned"], "max_per_source": 0,
                })  # fmt: skip
                assert r.status_code == 200, r.text
                answer = json.loads(r.text)
                assert len(answer["rows"]) == 2
                _finite_numbers(answer)
                for row in answer["rows"]:
                    assert row["cos_dist"] == pytest.approx(0.0, abs=1e-5)
    finally:
        client.delete("/api/rag/documents/poisoned")


@pytest.mark.parametrize("as_of", [12345, "12345", 1.7e9])
def test_a_timestamp_written_as_a_number_is_refused(client, as_of):
    r = client.post("/api/rag/search", json={"embedding": GOOD, "as_of": as_of})
    assert r.status_code == 400
    assert r.json()["error"] == (
        "as_of must be an ISO 8601 timestamp, such as 2026-01-31T12:00:00Z, not a number"
    )


KIND_SPACES = {"hsparse": {"kind": "sparse", "dims": 100},
               "htokens": {"kind": "multivector", "dims": 4, "max_tokens": 3}}  # fmt: skip
SPARSE_OK = {"indices": [1, 5], "values": [0.5, 1.0]}
TOKENS_OK = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
# (space, value, the words the error must hold)
BAD_SHAPES = [
    ("hsparse", {"indices": [5, 1], "values": [1.0, 1.0]}, "indices[1] must be greater"),
    ("hsparse", {"indices": [1, 1], "values": [1.0, 1.0]}, "increasing, no repeats"),
    ("hsparse", {"indices": [100], "values": [1.0]}, "indices[0] is 100: must be below 100"),
    ("hsparse", {"indices": [-1], "values": [1.0]}, "indices[0]: Input should be greater"),
    ("hsparse", {"indices": [1, 2], "values": [1.0]}, "2 indices but 1 values"),
    ("hsparse", {"indices": [], "values": []}, "at least one non-zero entry"),
    ("hsparse", {"indices": [1], "values": [0.0]}, "values[0] is 0"),
    ("hsparse", {"indices": [1], "values": [1.0], "dim": 99}, "dim is 99; the space has 100"),
    (
        "hsparse",
        {"indices": list(range(16_001)), "values": [1.0] * 16_001},
        "at most 16,000 entries",
    ),
    ("hsparse", {"indices": [1], "values": [1e-30]}, "its length (L2 norm)"),
    ("hsparse", {"indices": [1], "weights": [1.0]}, "unknown field"),
    ("hsparse", [0.1, 0.2], "must be a sparse vector"),
    ("htokens", [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0]], "[1]: expected 4 numbers, got 2"),
    ("htokens", [[1.0, 0.0, 0.0, 0.0]] * 4, "4 token vectors; the space takes at most 3"),
    ("htokens", [[0.0, 0.0, 0.0, 0.0]], "[0] must not be all zeros"),
    ("htokens", [[1.0, 0.0, 0.0, "x"]], "[0][3] must be a number (got a string)"),
    ("htokens", [1.0, 0.0, 0.0, 0.0], "must be a multivector"),
    ("htokens", SPARSE_OK, "must be a multivector"),
    ("default", SPARSE_OK, "must be a number[] (a dense vector)"),
    ("default", TOKENS_OK, "must be a number[] (a dense vector)"),
]


@pytest.fixture(scope="module")
def kind_spaces(client):
    for name, body in KIND_SPACES.items():
        assert client.post("/api/rag/spaces", json={"name": name, **body}).status_code == 201


@pytest.mark.parametrize(("space", "value", "words"), BAD_SHAPES,
                         ids=[f"{s}-{w[:24]}" for s, _, w in BAD_SHAPES])  # fmt: skip
def test_a_vector_of_the_wrong_shape_for_its_space_is_refused(client, kind_spaces, space,
                                                              value, words):  # fmt: skip
    good = {"hsparse": SPARSE_OK, "htokens": TOKENS_OK, "default": GOOD}
    chunk = {"chunk_id": "shape-0", "chunk": "text",
             "embeddings": {**good, space: value}}  # fmt: skip
    r = client.post("/api/rag/documents", json={"doc_id": "shape", "chunks": [chunk]})
    assert r.status_code == 400, r.text
    assert words in r.text and f"embeddings.{space}" in r.text, r.text
    assert client.get("/api/rag/documents/shape").status_code == 404
    r = client.post("/api/rag/search", json={"embeddings": {space: value}})
    assert r.status_code == 400 and words in r.text, r.text


def test_every_shape_stored_together_reads_back(client, kind_spaces):
    chunk = {
        "chunk_id": "shape-0",
        "chunk": "text",
        "embeddings": {"hsparse": SPARSE_OK, "htokens": TOKENS_OK, "default": GOOD},
    }
    assert client.post("/api/rag/documents", json={"doc_id": "shape", "chunks": [chunk]}
                       ).status_code == 200  # fmt: skip
    try:
        read = client.get("/api/rag/documents/shape?include_embeddings=true").json()
        stored = read["chunks"][0]["embeddings"]
        assert stored["hsparse"] == {**SPARSE_OK, "dim": 100}
        assert stored["htokens"] == TOKENS_OK
    finally:
        client.delete("/api/rag/documents/shape")
