"""Text in: a service with the packaged model embeds documents given as text (split by
the service) and chunks sent without vectors, keeps what it embedded by content hash,
refuses vectors of another model, and answers bad text with the rule it breaks."""

from __future__ import annotations

import httpx
import pytest

from conftest import WRITE_KEY

SERVICE_ENV = {"RAG_EMBEDDER": "local", "RAG_CHUNK_TOKENS": "48", "RAG_CHUNK_OVERLAP_TOKENS": "8",
               "RAG_MAX_TEXT_CHUNKS": "50"}  # fmt: skip

GUIDE = """# Brewing guide

Coffee is brewed by steeping ground beans in hot water. The grind size matters a lot.

## Espresso

Espresso forces hot water through finely ground coffee at about nine bars of pressure.
A shot takes about twenty-five seconds. Crema forms on top when the beans are fresh.

```python
def pull_shot(grams: float) -> float:
    return grams * 2
```

## Cold brew

Cold brew steeps coarse grounds in cold water for twelve to twenty-four hours.
"""


def _post(client: httpx.Client, body: dict) -> httpx.Response:
    return client.post("/api/rag/documents", json=body)


def test_a_markdown_text_is_split_embedded_and_found(client, run_id):
    doc_id = f"{run_id}-guide"
    r = _post(client, {"doc_id": doc_id, "text": GUIDE, "content_type": "text/markdown"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["chunks"] >= 3 and body["vectors"] == {"default": body["chunks"]}
    assert body["embedded"] == body["chunks"] and body["cached"] == 0
    stored = client.get(f"/api/rag/documents/{doc_id}").json()
    assert stored["title"] == "Brewing guide" and stored["content_type"] == "text/markdown"
    chunks = stored["chunks"]
    for chunk in chunks:
        position = chunk["position"]
        assert GUIDE[position["start"] : position["end"]] == chunk["chunk"]
        assert chunk["spaces"] == ["default"]
    code = next(c for c in chunks if "def pull_shot" in c["chunk"])
    assert "return grams * 2\n```" in code["chunk"]  # the fenced block kept whole
    assert code["position"]["heading_path"] == ["Brewing guide", "Espresso"]
    assert chunks[-1]["position"]["heading_path"] == ["Brewing guide", "Cold brew"]
    found = client.post("/api/rag/search", json={"query": "how many hours does cold brew steep",
                                                 "hybrid_vector_weight": 1, "k": 1})  # fmt: skip
    assert found.status_code == 200, found.text
    row = found.json()["rows"][0]
    assert row["doc_id"] == doc_id and "Cold brew" in row["chunk"]


def test_resending_unchanged_text_embeds_nothing(client, run_id):
    body = {"doc_id": f"{run_id}-again", "text": GUIDE, "content_type": "text/markdown"}
    first = _post(client, body).json()
    again = _post(client, body).json()
    assert again["embedded"] == 0 and again["cached"] == first["chunks"]
    assert again["replaced_chunks"] == first["chunks"]
    changed = _post(client, {**body, "text": GUIDE + "\nA final new paragraph about tea.\n"})
    assert changed.json()["embedded"] == 1  # only the chunk whose text changed


def test_a_collections_cache_is_its_own(client, run_id):
    """Another tenant storing the same text embeds it again: before, its answer said
    `cached: 1`, telling it that this exact text was stored elsewhere. Its own text
    stored again is still found in its cache."""
    secret = {"chunks": [{"chunk": f"{run_id}: the merger closes on 2027-03-01."}]}
    tenants = [f"{run_id}-a", f"{run_id}-b"]
    for tenant in tenants:
        assert client.post("/api/rag/collections", json={"name": tenant}).status_code == 201
    first = _post(client, {**secret, "doc_id": "plan", "collection": tenants[0]}).json()
    guess = _post(client, {**secret, "doc_id": "guess", "collection": tenants[1]}).json()
    again = _post(client, {**secret, "doc_id": "copy", "collection": tenants[0]}).json()
    assert (first["embedded"], first["cached"]) == (1, 0)
    assert (guess["embedded"], guess["cached"]) == (1, 0)
    assert (again["embedded"], again["cached"]) == (0, 1)


def test_chunks_without_vectors_are_embedded(client, run_id):
    body = {"doc_id": f"{run_id}-plain", "title": "Notes",
            "chunks": [{"chunk": "Bananas are rich in potassium."},
                       {"chunk": "Rust has a borrow checker."}]}  # fmt: skip
    r = _post(client, body)
    assert r.status_code == 200, r.text
    assert r.json()["vectors"] == {"default": 2}
    rows = client.post(
        "/api/rag/search",
        json={"query": "memory safety of a systems language", "hybrid_vector_weight": 1, "k": 1},
    ).json()["rows"]
    assert rows[0]["chunk_id"] == f"{run_id}-plain-chunk-1"


def test_a_vector_of_another_model_is_refused(client, run_id):
    body = {
        "doc_id": f"{run_id}-other",
        "chunks": [{"chunk": "text", "model": "text-embedding-3-small", "embedding": [0.1] * 384}],
    }
    r = _post(client, body)
    assert r.status_code == 400
    assert "all-MiniLM-L6-v2" in r.json()["error"] and r.json()["field"] == "embedding"
    same = {
        "doc_id": f"{run_id}-same",
        "chunks": [{"chunk": "text", "model": "all-MiniLM-L6-v2", "embedding": [0.1] * 384}],
    }
    assert _post(client, same).status_code == 200
    assert client.get(f"/api/rag/documents/{run_id}-other").status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [({"text": "   \n  "}, 400, "text must not be empty"),
     ({"text": "x", "content_type": "application/msword"}, 415, "text/markdown"),
     ({"text": "x", "chunks": [{"chunk": "y"}]}, 400, "not both"),
     ({"content_type": "text/plain", "chunks": [{"chunk": "y"}]}, 400, "for text"),
     ({"text": "x", "chunking": {"max_tokens": 2}}, 400, "chunking.max_tokens"),
     ({"text": "word " * 2000, "chunking": {"max_tokens": 8}}, 400,
      "text: splits into more than 50 chunks (RAG_MAX_TEXT_CHUNKS)")],
    ids=["empty", "unsupported type", "text and chunks", "content type without text",
         "chunk too small", "too many chunks"],
)  # fmt: skip
def test_bad_text_is_refused_naming_the_rule(client, run_id, body, status, words):
    r = _post(client, {"doc_id": f"{run_id}-bad", **body})
    assert r.status_code == status, r.text
    assert words in r.text
    assert client.get(f"/api/rag/documents/{run_id}-bad").status_code == 404


def test_html_is_read_as_its_visible_text(client, run_id):
    html = ("<html><head><title>Tea</title><script>alert(1)</script></head><body>"
            "<h1>Green tea</h1><p>Green tea is <b>steamed</b> or pan-fired.</p>"
            "<pre>brew(80)</pre></body></html>")  # fmt: skip
    r = _post(client, {"doc_id": f"{run_id}-html", "text": html, "content_type": "text/html"})
    assert r.status_code == 200, r.text
    stored = client.get(f"/api/rag/documents/{run_id}-html").json()
    text = " ".join(c["chunk"] for c in stored["chunks"])
    assert stored["title"] == "Tea" and "steamed or pan-fired" in text and "alert" not in text


def test_the_key_of_a_read_only_client_cannot_store_text(service, run_id):
    headers = {"Authorization": "Bearer test-read-key"}
    r = httpx.post(service.base_url + "/api/rag/documents", headers=headers,
                   json={"doc_id": f"{run_id}-ro", "text": "hello"})  # fmt: skip
    assert r.status_code == 403
    assert WRITE_KEY not in r.text
