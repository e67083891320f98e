"""Spaces whose vectors an OpenAI-compatible endpoint makes: a real embeddings server
(the packaged model behind /v1/embeddings) and one that injects faults. Documents and
questions are embedded by each space's own embedder, the key is sent and never shown,
and an endpoint that is down, slow or wrong stores nothing and says why."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from embed_server import embed_server

SECRET = "sk-test-secret-0123456789"
SERVICE_ENV = {"RAG_EMBEDDER": "none", "RAG_EMBEDDER_KEYS": f'{{"remote": "{SECRET}"}}'}


@pytest.fixture(scope="module")
def minilm_url() -> Iterator[str]:
    with embed_server() as url:
        yield url


@pytest.fixture(scope="module")
def flaky_url() -> Iterator[str]:
    with embed_server("--hash", "8") as url:
        yield url


def _control(url: str) -> str:
    return url.removesuffix("/v1")


@pytest.fixture(scope="module")
def spaces(client, minilm_url, flaky_url) -> dict[str, str]:
    remote = {"name": "remote", "dims": 384, "embedder": {
        "kind": "openai", "url": minilm_url, "model": "all-MiniLM-L6-v2", "key": "remote",
        "query_prefix": "query: ", "batch_size": 4}}  # fmt: skip
    flaky = {
        "name": "flaky",
        "dims": 8,
        "embedder": {
            "kind": "openai",
            "url": flaky_url,
            "model": "hash-8",
            "key": "remote",
            "timeout": 1,
        },
    }
    for body in (remote, flaky):
        r = client.post("/api/rag/spaces", json=body)
        assert r.status_code == 201, r.text
        assert SECRET not in r.text and r.json()["space"]["embedder"]["key"] == "remote"
    return {"remote": minilm_url, "flaky": flaky_url}


@pytest.fixture
def faults(spaces) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=_control(spaces["flaky"])) as control:
        control.post("/reset")
        yield control
        control.post("/reset")


def test_documents_and_questions_are_embedded_by_the_spaces_endpoint(client, spaces, run_id):
    stats = httpx.Client(base_url=_control(spaces["remote"]))
    stats.post("/reset")
    doc = {"doc_id": f"{run_id}-tea", "title": "Tea", "text": "Oolong is partly oxidised.\n\n"
           "Matcha is powdered green tea whisked with water."}  # fmt: skip
    r = client.post("/api/rag/documents", json=doc)
    assert r.status_code == 200, r.text
    assert r.json()["vectors"] == {"remote": r.json()["chunks"], "flaky": r.json()["chunks"]}
    seen = stats.get("/stats").json()
    assert seen["texts"] == ["Tea\nOolong is partly oxidised.\n\nMatcha is powdered green tea "
                             "whisked with water."]  # fmt: skip
    assert set(seen["authorization"]) == {f"Bearer {SECRET}"}
    search = client.post(
        "/api/rag/search",
        json={
            "query": "powdered green tea",
            "active_spaces": ["remote"],
            "hybrid_vector_weight": 1,
        },
    )
    assert search.status_code == 200, search.text
    assert search.json()["query_metadata"]["spaces_searched"] == ["remote"]
    assert search.json()["rows"][0]["doc_id"] == f"{run_id}-tea"
    assert stats.get("/stats").json()["texts"][-1] == "query: powdered green tea"
    both = client.post("/api/rag/search", json={"query": "oolong", "hybrid_vector_weight": 1})
    assert both.json()["query_metadata"]["spaces_searched"] == ["remote", "flaky"]


def test_a_429_with_a_short_retry_after_is_waited_for(client, faults, run_id):
    faults.post("/faults", json=["429"])
    r = client.post("/api/rag/documents", json={"doc_id": f"{run_id}-w", "text": "wait once"})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("injected", "status", "words"),
    [(["500", "500"], 503, "unavailable"), (["timeout", "timeout"], 503, "no answer within 1 s"),
     (["dims"], 502, "7 dimensions; the space has 8"), (["nan"], 502, "NaN"),
     (["400"], 502, "injected bad request")],
    ids=["5xx", "timeout", "wrong dimensions", "NaN", "refused"],
)  # fmt: skip
def test_a_failing_endpoint_stores_nothing_and_says_why(client, faults, run_id, injected,
                                                        status, words):  # fmt: skip
    faults.post("/faults", json=injected)
    doc_id = f"{run_id}-fail"
    r = client.post("/api/rag/documents", json={"doc_id": doc_id, "text": "a failing embedder"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"] and r.json()["space"] == "flaky"
    if status == 503:
        assert int(r.headers["retry-after"]) >= 1
    assert SECRET not in r.text
    assert client.get(f"/api/rag/documents/{doc_id}").status_code == 404


def test_the_key_is_never_logged(service, client, faults, run_id):
    faults.post("/faults", json=["500", "500", "400"])
    for n in range(2):
        client.post("/api/rag/documents", json={"doc_id": f"{run_id}-{n}", "text": "logged?"})
    assert SECRET not in service.log()
    assert SECRET not in client.get("/api/rag/spaces").text


def test_a_vector_of_another_model_is_refused(client, spaces, run_id):
    chunk = {"chunk": "x", "model": "text-embedding-3-large", "embeddings": {"remote": [0.1] * 384}}
    r = client.post("/api/rag/documents", json={"doc_id": f"{run_id}-m", "chunks": [chunk]})
    assert r.status_code == 400
    assert "'all-MiniLM-L6-v2'" in r.json()["error"] and r.json()["space"] == "remote"


@pytest.mark.parametrize(
    ("embedder", "words"),
    [({"kind": "openai", "url": "http://127.0.0.1:9/v1", "model": "m", "key": "nope"},
      "RAG_EMBEDDER_KEYS has no key named 'nope'"),
     ({"kind": "openai", "model": "m"}, "needs url and model"),
     ({"kind": "openai", "url": "http://user:pw@127.0.0.1/v1", "model": "m"}, "credentials"),
     ({"kind": "local", "package": "no_such_model_package"}, "is not installed"),
     ({"kind": "local", "package": "no_such.sub"}, "is not installed"),
     ({"kind": "local", "package": "json"}, "'json' ships no model"),
     ({"kind": "local", "path": "/etc"}, "no model folder '/etc'"),
     ({"kind": "local"}, "makes 384-dimension vectors; the space has 16"),
     ({"kind": "local", "url": "http://x"}, "only for kind openai")],
    ids=["unknown key", "no url", "credentials in url", "missing package", "missing parent",
         "not a model package", "not a model folder", "wrong dims", "stray field"],
)  # fmt: skip
def test_an_embedder_the_server_cannot_run_is_refused(client, embedder, words):
    r = client.post("/api/rag/spaces", json={"name": "refused", "dims": 16, "embedder": embedder})
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]
    assert "refused" not in [s["name"] for s in client.get("/api/rag/spaces").json()["spaces"]]


def test_a_term_weights_embedder_needs_a_tokenizers_folder(client):
    """Before, any folder was taken (say /etc), and then every document stored, in every
    collection, answered 500: the split read the tokenizer from it."""
    body = {"name": "refused_terms", "kind": "sparse", "dims": 30522,
            "embedder": {"kind": "bm25", "path": "/etc"}}  # fmt: skip
    r = client.post("/api/rag/spaces", json=body)
    assert r.status_code == 400 and "no model folder '/etc'" in r.json()["error"], r.text
