"""Documents, spaces, signals and stats over HTTP: storing is all or nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
import numpy as np
import psycopg
import pytest

from app.errors import Unavailable, from_database_error

DIMS = 384


def vec(seed: int, dims: int = DIMS) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(dims)
    return (v / np.linalg.norm(v)).tolist()


def doc(doc_id: str, n: int = 3, **fields) -> dict:
    return {
        "doc_id": doc_id,
        "src": f"https://example.com/{doc_id}",
        "title": "Intro",
        "tags": ["t1"],
        "metadata": {"lang": "en"},
        "chunks": [{"chunk": f"text {i} of {doc_id}", "embedding": vec(i)} for i in range(n)],
        **fields,
    }


def stored(client, doc_id: str) -> dict | None:
    r = client.get(f"/api/rag/documents/{doc_id}")
    return r.json() if r.status_code == 200 else None


def test_store_read_and_defaults(client, run_id):
    before = datetime.now(UTC)
    r = client.post("/api/rag/documents", json=doc(f"{run_id}-d", 3))
    assert r.status_code == 200
    assert r.json() == {"ok": True, "doc_id": f"{run_id}-d", "chunks": 3, "replaced_chunks": 0,
                        "vectors": {"default": 3}, "embedded": 0, "cached": 0}  # fmt: skip
    body = stored(client, f"{run_id}-d")
    assert (
        body["title"] == "Intro" and body["metadata"] == {"lang": "en"} and body["tags"] == ["t1"]
    )
    first = body["chunks"][0]
    assert first["chunk_id"] == f"{run_id}-d-chunk-0"  # {doc_id}-chunk-{n}
    assert (first["volume"], first["confidence"], first["scale"]) == (1, 1, 1)
    assert first["signal"] == pytest.approx(0.2)  # min(1, 1*1/5)
    assert first["spaces"] == ["default"] and first["tags"] == ["t1"]
    assert datetime.fromisoformat(first["created_at"]) >= before.replace(microsecond=0)


def test_the_example_body_from_the_contract(client, run_id):
    client.post("/api/rag/spaces", json={"name": "code", "dims": 4, "model": "toy"})
    body = {
        "doc_id": f"{run_id}-doc-123", "src": "https://example.com/doc", "title": "Intro",
        "tags": [], "metadata": {},
        "chunks": [{
            "chunk_id": f"{run_id}-doc-123-chunk-0", "chunk": "Content...",
            "created_at": "2025-11-09T10:44:00Z", "volume": 2, "confidence": 0.9,
            "model": "text-embedding-3-small", "embedding": vec(1),
            "embeddings": {"code": [0.2, 0.1, 0.0, 0.3]},
        }],
    }  # fmt: skip
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["chunks"] == 1
    chunk = stored(client, body["doc_id"])["chunks"][0]
    assert chunk["created_at"].startswith("2025-11-09T10:44:00")
    assert chunk["scale"] == pytest.approx(1.8)
    assert chunk["signal"] == pytest.approx(0.36)  # min(1, 1.8 / 5)
    assert chunk["model"] == "text-embedding-3-small"
    assert sorted(chunk["spaces"]) == ["code", "default"]
    with_vectors = client.get(f"/api/rag/documents/{body['doc_id']}",
                              params={"include_embeddings": "true"}).json()  # fmt: skip
    assert with_vectors["chunks"][0]["embeddings"]["code"] == pytest.approx([0.2, 0.1, 0.0, 0.3])


def test_signal_given_directly_wins_over_scale(client, run_id):
    body = doc(f"{run_id}-s", 2)
    body["chunks"][0].update({"volume": 50, "confidence": 1, "signal": 0.1})
    body["chunks"][1].update({"volume": 50, "confidence": 1})
    assert client.post("/api/rag/documents", json=body).status_code == 200
    chunks = stored(client, f"{run_id}-s")["chunks"]
    assert chunks[0]["signal"] == pytest.approx(0.1) and chunks[0]["signal_pinned"] is True
    assert chunks[1]["signal"] == 1.0 and chunks[1]["signal_pinned"] is False


def test_resending_a_document_is_idempotent_and_replaces_chunks(client, run_id):
    doc_id = f"{run_id}-idem"
    assert client.post("/api/rag/documents", json=doc(doc_id, 4)).status_code == 200
    first = stored(client, doc_id)
    again = client.post("/api/rag/documents", json=doc(doc_id, 4))
    assert again.json()["replaced_chunks"] == 4
    second = stored(client, doc_id)
    strip = lambda d: [{k: v for k, v in c.items() if k != "created_at"} for c in d["chunks"]]  # noqa: E731
    assert strip(first) == strip(second)
    stats = client.get("/api/rag/documents/" + doc_id).json()
    assert len(stats["chunks"]) == 4
    smaller = client.post("/api/rag/documents", json=doc(doc_id, 2))
    assert smaller.json()["chunks"] == 2
    assert [c["chunk_id"] for c in stored(client, doc_id)["chunks"]] == [
        f"{doc_id}-chunk-0", f"{doc_id}-chunk-1",
    ]  # fmt: skip
    found = client.post("/api/rag/search", json={"embedding": vec(0), "k": 50, "doc_ids": [doc_id]})
    assert len(found.json()["rows"]) == 2


def _bad_chunk_cases() -> list:
    return [
        ({"embedding": [0.1] * 10}, 400, "embedding: expected 384 numbers, got 10", "embedding"),
        ({"embeddings": {"nope": [0.1]}}, 400, "embeddings.nope: unknown embedding space 'nope'",
         "embeddings.nope"),
        ({"embedding": [1e39] + [0.1] * (DIMS - 1)}, 400, "embedding[0] is not finite",
         "embedding"),
        ({"embedding": [0.0] * DIMS}, 400, "must not be all zeros", "embedding"),
        ({"chunk": ""}, 400, "chunk (the text) must not be empty", "chunk"),
        ({"chunk": "   \n"}, 400, "chunk (the text) must not be empty", "chunk"),
        ({"chunk": "nul\x00byte"}, 400, "must not contain NUL", None),
    ]  # fmt: skip


@pytest.mark.parametrize(("change", "status", "message", "field"), _bad_chunk_cases())
def test_one_bad_chunk_stores_nothing_and_names_the_chunk(
    client, run_id, change, status, message, field
):
    doc_id = f"{run_id}-atomic"
    assert client.post("/api/rag/documents", json=doc(doc_id, 2)).status_code == 200
    original = stored(client, doc_id)
    body = doc(doc_id, 5)
    body["chunks"][3].update(change)
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == status, r.text
    error = r.json()
    assert message in error["error"]
    assert error["chunk"] == 3 and error["chunk_id"] == f"{doc_id}-chunk-3"
    assert f"chunks[3] ('{doc_id}-chunk-3')" in error["error"]
    if field:
        assert error["field"] == field
    assert stored(client, doc_id) == original  # untouched


def test_dimension_errors_say_expected_and_actual(client, run_id):
    body = doc(f"{run_id}-dim", 1)
    body["chunks"][0]["embedding"] = [0.1] * 383
    error = client.post("/api/rag/documents", json=body).json()
    assert (error["expected"], error["actual"]) == (384, 383)


def test_a_new_document_with_a_bad_chunk_is_not_created(client, run_id):
    body = doc(f"{run_id}-new", 3)
    body["chunks"][2]["embedding"] = [0.1] * 5
    assert client.post("/api/rag/documents", json=body).status_code == 400
    assert client.get(f"/api/rag/documents/{run_id}-new").status_code == 404


def test_chunk_id_owned_by_another_document_is_a_conflict(client, run_id):
    owner = doc(f"{run_id}-owner", 1)
    owner["chunks"][0]["chunk_id"] = f"{run_id}-shared"
    assert client.post("/api/rag/documents", json=owner).status_code == 200
    thief = doc(f"{run_id}-thief", 2)
    thief["chunks"][1]["chunk_id"] = f"{run_id}-shared"
    r = client.post("/api/rag/documents", json=thief)
    assert r.status_code == 409
    assert r.json()["doc_id"] == f"{run_id}-owner"
    assert client.get(f"/api/rag/documents/{run_id}-thief").status_code == 404


def test_repeated_chunk_ids_in_one_document(client, run_id):
    body = doc(f"{run_id}-rep", 2)
    body["chunks"][0]["chunk_id"] = body["chunks"][1]["chunk_id"] = "same"
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == 400 and "chunk_id repeats" in r.json()["error"]


def test_too_many_chunks_per_request(client, run_id):
    body = {"doc_id": f"{run_id}-big", "chunks": [{"chunk": f"c{i}"} for i in range(1001)]}
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == 400
    assert r.json()["error"] == "chunks: at most 1000 chunks per request (got 1001)"


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"chunks": []}, "doc_id"),
        ({"doc_id": "", "chunks": []}, "doc_id must be a non-empty string"),
        ({"doc_id": "x"}, "a document needs chunks (an empty list stores it without any) or text"),
        ({"doc_id": "x", "chunks": [{"chunk": "a", "volume": -1}]}, "chunks[0].volume"),
        ({"doc_id": "x", "chunks": [{"chunk": "a", "signal": 2}]}, "chunks[0].signal"),
        ({"doc_id": "x", "chunks": [{"chunk": "a", "created_at": "soon"}]}, "chunks[0].created_at"),
        ({"doc_id": "x", "chunks": [{"text": "a"}]}, "unknown field 'chunks[0].text'"),
        ({"doc_id": "x", "chunks": [{"chunk": "a", "embedding": ["x"]}]}, "chunks[0].embedding[0]"),
    ],
)
def test_field_errors_name_the_field(client, body, needle):
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == 400
    assert needle in r.json()["error"]


def test_delete_document(client, run_id):
    doc_id = f"{run_id}-del"
    client.post("/api/rag/documents", json=doc(doc_id, 3))
    r = client.delete(f"/api/rag/documents/{doc_id}")
    assert r.json() == {"ok": True, "doc_id": doc_id, "deleted_chunks": 3}
    assert client.get(f"/api/rag/documents/{doc_id}").status_code == 404
    again = client.delete(f"/api/rag/documents/{doc_id}")
    assert again.status_code == 404 and "no document" in again.json()["error"]
    found = client.post("/api/rag/search", json={"embedding": vec(0), "doc_ids": [doc_id]})
    assert found.json()["rows"] == []


def test_a_space_of_3072_dimensions(client, run_id):
    name = f"big_{run_id}"
    assert client.post("/api/rag/spaces", json={"name": name, "dims": 3072}).status_code == 201
    body = doc(f"{run_id}-big3072", 2)
    for i, chunk in enumerate(body["chunks"]):
        chunk["embeddings"] = {name: vec(40 + i, 3072)}
    assert client.post("/api/rag/documents", json=body).status_code == 200
    q = {"query_embedding": vec(40, 3072), "top_k": 2, "doc_ids": [f"{run_id}-big3072"]}
    found = client.post(f"/api/rag/search/space/{name}", json=q).json()["results"]
    assert found[0]["chunk_id"] == f"{run_id}-big3072-chunk-0"
    assert found[0]["similarity"] == pytest.approx(1.0, abs=1e-5)
    weighted = client.post(
        "/api/rag/search",
        json={"embeddings": {name: vec(40, 3072)}, "k": 1, "doc_ids": [f"{run_id}-big3072"]},
    )
    assert weighted.json()["rows"][0]["cos_dist"] == pytest.approx(0.0, abs=1e-5)


def test_spaces_register_list_conflict_and_drop(client, run_id):
    name = f"s_{run_id}"
    r = client.post(
        "/api/rag/spaces", json={"name": name, "dims": 16, "model": "m", "description": "d"}
    )
    assert r.status_code == 201
    assert r.json()["space"]["dims"] == 16
    assert client.post("/api/rag/spaces", json={"name": name, "dims": 16}).status_code == 409
    listed = {s["name"]: s for s in client.get("/api/rag/spaces").json()["spaces"]}
    assert listed[name]["model"] == "m" and listed["default"]["dims"] == 384
    body = doc(f"{run_id}-sp", 2)
    body["chunks"][0]["embeddings"] = {name: vec(3, 16)}
    client.post("/api/rag/documents", json=body)
    stats = client.get("/api/rag/stats").json()
    per_space = {s["name"]: s["vectors"] for s in stats["spaces"]}
    assert per_space[name] == 1 and stats["chunks"] >= 2 and stats["documents"] >= 1
    assert client.delete(f"/api/rag/spaces/{name}").json() == {
        "ok": True, "dropped": name, "goals_removed": [], "goals_losing_a_vector": [],
        "profiles_weighing_it": []}  # fmt: skip
    assert client.delete(f"/api/rag/spaces/{name}").status_code == 404
    assert client.delete("/api/rag/spaces/default").status_code == 409
    assert stored(client, f"{run_id}-sp")["chunks"][0]["spaces"] == ["default"]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"name": "Bad-Name", "dims": 4}, "name must match"),
        ({"name": "ok_name", "dims": 0}, "dims must be an integer in 1..4000"),
        ({"name": "ok_name", "dims": 4001}, "dims must be an integer in 1..4000"),
        ({"name": "ok_name"}, "dims is required"),
    ],
)
def test_bad_space_requests(client, body, needle):
    r = client.post("/api/rag/spaces", json=body)
    assert r.status_code == 400 and needle in r.json()["error"]


def test_signals_feedback_loop(client, run_id):
    doc_id = f"{run_id}-sig"
    client.post("/api/rag/documents", json=doc(doc_id, 3))
    c0, c1, c2 = (f"{doc_id}-chunk-{i}" for i in range(3))
    r = client.post("/api/rag/signals", json={"updates": [
        {"chunk_id": c0, "add_volume": 4},
        {"chunk_id": c1, "volume": 2, "confidence": 0.5},
        {"chunk_id": c2, "signal": 0.9},
    ]})  # fmt: skip
    assert r.status_code == 200 and r.json()["updated"] == 3
    chunks = {c["chunk_id"]: c for c in stored(client, doc_id)["chunks"]}
    assert chunks[c0]["volume"] == 5 and chunks[c0]["signal"] == pytest.approx(1.0)
    assert chunks[c1]["scale"] == pytest.approx(1.0) and chunks[c1]["signal"] == pytest.approx(0.2)
    assert chunks[c2]["signal"] == pytest.approx(0.9) and chunks[c2]["signal_pinned"]
    # Signal-only search now ranks c0 (1.0) > c2 (0.9) > c1 (0.2).
    rows = client.post("/api/rag/search", json={
        "embedding": vec(0), "k": 3, "w_cos": 0, "w_rec": 0, "w_sig": 1, "doc_ids": [doc_id],
    }).json()["rows"]  # fmt: skip
    assert [row["chunk_id"] for row in rows] == [c0, c2, c1]
    client.post("/api/rag/signals", json={"updates": [{"chunk_id": c2, "signal": None}]})
    assert stored(client, doc_id)["chunks"][2]["signal"] == pytest.approx(0.2)


def test_signals_with_an_unknown_chunk_change_nothing(client, run_id):
    doc_id = f"{run_id}-sig2"
    client.post("/api/rag/documents", json=doc(doc_id, 1))
    before = stored(client, doc_id)
    r = client.post("/api/rag/signals", json={"updates": [
        {"chunk_id": f"{doc_id}-chunk-0", "add_volume": 10},
        {"chunk_id": f"{run_id}-missing", "signal": 1},
    ]})  # fmt: skip
    assert r.status_code == 404
    assert r.json()["chunk_ids"] == [f"{run_id}-missing"]
    assert stored(client, doc_id) == before


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"updates": []}, "updates must be an array"),
        ({"updates": [{"chunk_id": "x"}]}, "updates[0]"),
        ({"updates": [{"chunk_id": "x", "signal": 1.5}]}, "updates[0].signal"),
        ({"updates": [{"chunk_id": "x", "volume": -1}]}, "updates[0].volume"),
        ({"updates": [{"chunk_id": "x", "volume": 1, "add_volume": 1}]}, "updates[0]"),
        (
            {"updates": [{"chunk_id": "x", "add_volume": 1}, {"chunk_id": "x", "add_volume": 2}]},
            "each chunk_id may appear only once",
        ),
    ],
)
def test_bad_signal_requests(client, body, needle):
    r = client.post("/api/rag/signals", json=body)
    assert r.status_code == 400 and needle in r.json()["error"]


def b64(vector: list[float]) -> str:
    import base64

    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode()


def test_vectors_may_be_base64_float32(client, run_id):
    doc_id = f"{run_id}-b64"
    body = doc(doc_id, 2)
    body["chunks"][0]["embedding"] = b64(vec(0))
    assert client.post("/api/rag/documents", json=body).status_code == 200
    got = client.get(f"/api/rag/documents/{doc_id}", params={"include_embeddings": "true"}).json()
    assert got["chunks"][0]["embeddings"]["default"] == pytest.approx(vec(0), abs=1e-6)
    as_numbers = client.post(
        "/api/rag/search", json={"embedding": vec(0), "k": 2, "doc_ids": [doc_id]}
    )
    as_base64 = client.post(
        "/api/rag/search", json={"embedding": b64(vec(0)), "k": 2, "doc_ids": [doc_id]}
    )
    same = lambda rows: [(r["chunk_id"], r["cos_dist"]) for r in rows]  # noqa: E731
    assert same(as_base64.json()["rows"]) == same(as_numbers.json()["rows"])
    bad = doc(doc_id, 1)
    bad["chunks"][0]["embedding"] = "not base64!"
    r = client.post("/api/rag/documents", json=bad)
    assert r.status_code == 400
    assert (
        "chunks[0]" in r.json()["error"] and "base64 of little-endian float32" in r.json()["error"]
    )
    short = doc(doc_id, 1)
    short["chunks"][0]["embedding"] = b64(vec(0)[:100])
    assert (
        "expected 384 numbers, got 100"
        in client.post("/api/rag/documents", json=short).json()["error"]
    )


def test_concurrent_writers_of_one_collection_all_succeed(client, run_id):
    """Eight writers adding, replacing and deleting documents of one collection at once
    (sharing words and tags, so they update the same keyword statistics): every request
    succeeds and the stored counts add up."""
    collection = f"c-{run_id}"
    assert client.post("/api/rag/collections", json={"name": collection}).status_code == 201
    words = "ledger balance account invoice payment"

    def body(writer: int, n: int, round_: int) -> dict:
        chunks = [{"chunk": f"{words} {round_} w{writer} n{n} c{c}", "tags": ["shared"],
                   "embedding": vec(writer * 100 + n * 10 + c)} for c in range(3)]  # fmt: skip
        return {"collection": collection, "doc_id": f"w{writer}-{n}", "chunks": chunks}

    def write(writer: int) -> list[int]:
        with httpx.Client(base_url=client.base_url, headers=client.headers, timeout=60) as http:
            statuses = [http.post("/api/rag/documents", json=body(writer, n, r)).status_code
                        for r in range(2) for n in range(10)]  # fmt: skip
            statuses += [http.delete(f"/api/rag/documents/w{writer}-{n}",
                                     params={"collection": collection}).status_code
                         for n in range(5)]  # fmt: skip
        return statuses

    with ThreadPoolExecutor(8) as pool:
        statuses = [status for result in pool.map(write, range(8)) for status in result]
    assert statuses == [200] * len(statuses)
    stats = client.get("/api/rag/stats", params={"collection": collection}).json()
    assert (stats["documents"], stats["chunks"]) == (8 * 5, 8 * 5 * 3)
    search = {"collection": collection, "query": "ledger invoice", "w_lex": 1.0, "k": 50,
              "max_per_source": 0}  # fmt: skip
    r = client.post("/api/rag/search", json=search)
    assert len(r.json()["rows"]) == 50
    tags = client.get(f"/api/rag/collections/{collection}").json()["collection"]["top_tags"]
    assert tags == [{"tag": "shared", "chunks": 120}]


@pytest.mark.unit
@pytest.mark.parametrize(
    "error", [psycopg.errors.DeadlockDetected("x"), psycopg.errors.SerializationFailure("x")]
)
def test_a_write_collision_is_a_retryable_503_not_a_lost_database(error):
    mapped = from_database_error(error)
    assert isinstance(mapped, Unavailable) and (mapped.status, mapped.retry_after) == (503, 1)
    assert "collided with a concurrent" in mapped.message


def test_a_new_space_indexes_with_the_graph_settings_that_hold_recall(client, run_id):
    """m 16 and ef_construction 200 (RAG_HNSW_M, RAG_HNSW_EF_CONSTRUCTION): with 100 the
    graph traps some queries in the wrong cluster at 1M chunks (docs/performance/hnsw.md)."""
    name = f"g_{run_id}"
    created = client.post("/api/rag/spaces", json={"name": name, "dims": 8})
    listed = {s["name"]: s for s in client.get("/api/rag/spaces").json()["spaces"]}
    client.delete(f"/api/rag/spaces/{name}")
    assert created.json()["space"]["index"] == {"m": 16, "ef_construction": 200}
    assert listed[name]["index"] == {"m": 16, "ef_construction": 200}


def test_a_body_without_chunks_or_text_leaves_the_document_whole(client, run_id):
    """Storing replaces a document's chunks: before, a body that forgot both emptied it."""
    doc_id = f"{run_id}-kept"
    stored = {"doc_id": doc_id, "chunks": [{"chunk": "kept"}]}
    assert client.post("/api/rag/documents", json=stored).status_code == 200
    r = client.post("/api/rag/documents", json={"doc_id": doc_id, "title": "forgot"})
    assert r.status_code == 400 and r.json()["field"] == "chunks"
    assert [c["chunk"] for c in client.get(f"/api/rag/documents/{doc_id}").json()["chunks"]] == [
        "kept"
    ]
    emptied = client.post("/api/rag/documents", json={"doc_id": doc_id, "chunks": []})
    assert emptied.status_code == 200 and emptied.json()["replaced_chunks"] == 1
