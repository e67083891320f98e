"""``POST /api/rag/explain`` under reciprocal rank fusion: the chunk's fused score, its
ranks and its place among every fused candidate, against the search's own rows; the
stage that kept it out read against fused scores (the k-th row's is one), and a chunk in
no component's window said to be so."""

from __future__ import annotations

import httpx
import numpy as np
import pytest

from helpers import AS_OF, as_json, random_corpus

DIMS = 8
K = 5


@pytest.fixture(scope="module")
def fused(client: httpx.Client) -> dict:
    """150 chunks of 5 documents with a vector each in a space of their own, and the
    body of an rrf search over them (no cap on sources)."""
    space = "rrf_explained"
    assert client.post("/api/rag/spaces", json={"name": space, "dims": DIMS}).status_code == 201
    rng = np.random.default_rng(7)
    docs, chunks = random_corpus(rng, "rx", n_docs=5, chunks_per_doc=30,
                                 spaces={space: DIMS}, missing=0)  # fmt: skip
    for doc in docs:
        assert client.post("/api/rag/documents", json=doc).status_code == 200
    query = rng.standard_normal(DIMS)
    body = {"embeddings": {space: as_json(query / np.linalg.norm(query))}, "fusion": "rrf",
            "src_prefix": "https://rx.example/", "as_of": AS_OF.isoformat(),
            "w_cos": 0.6, "w_rec": 0.2, "w_sig": 0.2, "max_per_source": 0}  # fmt: skip
    return {"body": body, "chunks": chunks, "space": space, "query": query}


def _post(client: httpx.Client, path: str, body: dict) -> dict:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _ranked(client: httpx.Client, body: dict) -> list[dict]:
    """The search's first 100 rows, explained."""
    pages = [_post(client, "/api/rag/search", {**body, "k": 50, "offset": offset,
                                               "explain": True})["rows"]
             for offset in (0, 50)]  # fmt: skip
    return pages[0] + pages[1]


def test_a_chunk_in_the_rows_has_its_fused_score_and_ranks(client, fused):
    rows = _ranked(client, fused["body"])
    third = rows[2]
    out = _post(client, "/api/rag/explain", {**fused["body"], "k": K,
                                             "chunk_id": third["chunk_id"]})  # fmt: skip
    assert (out["stage"], out["position"], out["rank"]) == ("included", 3, 3)
    assert out["score"] == pytest.approx(third["score"])
    assert out["ranks"] == third["ranks"]
    parts = out["components"]
    assert sum(p["weighted"] for p in parts.values()) == pytest.approx(out["score"])
    assert {name: p["rank"] for name, p in parts.items()} == {
        name: third["ranks"].get(name) for name in ("sem", "rec", "sig")}  # fmt: skip


def test_the_search_rows_components_add_up_to_the_fused_score(client, fused):
    for row in _ranked(client, fused["body"])[:20]:
        parts = row["components"]
        assert sum(p["weighted"] for p in parts.values()) == pytest.approx(row["score"])


def test_an_outscored_chunk_trails_the_kth_fused_score(client, fused):
    """Before, the chunk's weighted score was held against the k-th fused one (about 0.5
    against 0.016) and every outscored chunk was said to be held back by its source."""
    rows = _ranked(client, fused["body"])
    twelfth = rows[11]
    out = _post(client, "/api/rag/explain", {**fused["body"], "k": K,
                                             "chunk_id": twelfth["chunk_id"]})  # fmt: skip
    assert (out["stage"], out["rank"]) == ("outscored", 12)
    assert out["score"] == pytest.approx(twelfth["score"])
    assert out["kth_score"] == pytest.approx(rows[K - 1]["score"])
    assert out["short_by"] == pytest.approx(rows[K - 1]["score"] - twelfth["score"])


def test_a_chunk_held_back_by_its_source(client, fused):
    """One row a document: a chunk that scores above the k-th row but whose document has
    a better one shown."""
    rows = _ranked(client, fused["body"])
    capped = {**fused["body"], "k": K, "max_per_source": 1}
    shown = _post(client, "/api/rag/search", capped)["rows"]
    held = next(row for n, row in enumerate(rows) if row["score"] >= shown[-1]["score"]
                and row["doc_id"] in {r["doc_id"] for r in rows[:n]})  # fmt: skip
    out = _post(client, "/api/rag/explain", {**capped, "chunk_id": held["chunk_id"]})
    assert out["stage"] == "max_per_source" and out["rows_of_source"] == 1
    assert out["rank"] == rows.index(held) + 1


def test_a_chunk_under_min_score_is_short_of_it_by_its_fused_score(client, fused):
    rows = _ranked(client, fused["body"])
    floor = rows[3]["score"]
    low = rows[8]
    out = _post(client, "/api/rag/explain", {**fused["body"], "k": K, "min_score": floor,
                                             "chunk_id": low["chunk_id"]})  # fmt: skip
    assert out["stage"] == "min_score"
    assert out["short_by"] == pytest.approx(floor - low["score"])


def test_a_chunk_in_no_window_gets_nothing_from_fusion(client, fused):
    """Only the semantic part weighted: the chunk least like the question is past the
    first rrf_window (100) of the 150."""
    body = {**fused["body"], "k": K, "w_cos": 1.0, "w_rec": 0.0, "w_sig": 0.0}
    space, query = fused["space"], fused["query"] / np.linalg.norm(fused["query"])
    cosines = {c.chunk_id: float(query @ c.vectors[space] / np.linalg.norm(c.vectors[space]))
               for c in fused["chunks"]}  # fmt: skip
    last = min(cosines, key=lambda chunk_id: cosines[chunk_id])
    out = _post(client, "/api/rag/explain", {**body, "chunk_id": last})
    assert (out["stage"], out["rrf_window"], out["rank"]) == ("rrf_window", 100, None)
    assert out["score"] == 0.0 and out["ranks"] == {}


def test_a_filtered_chunk_has_no_fused_score(client, fused):
    rows = _ranked(client, fused["body"])
    first = rows[0]
    other = next(c for c in fused["chunks"] if c.doc_id != first["doc_id"])
    body = {**fused["body"], "k": K, "doc_ids": [first["doc_id"]], "chunk_id": other.chunk_id}
    out = _post(client, "/api/rag/explain", body)
    assert (out["stage"], out["failed_filters"], out["rank"]) == ("filter", ["doc_ids"], None)
    assert out["score"] == 0.0 and out["ranks"] == {}


@pytest.mark.parametrize("fusion", ["rrf", "weighted"])
@pytest.mark.parametrize("cap", [0, 2])
def test_an_offset_page_is_explained_as_the_search_returns_it(client, fused, fusion, cap):
    # explain ranked from the first row whatever the offset: a chunk on the page the
    # search returned was "outscored", read against the k-th row of the first page
    body = {**fused["body"], "fusion": fusion, "max_per_source": cap, "k": 3}
    first = _post(client, "/api/rag/search", body)["rows"]
    page = _post(client, "/api/rag/search", {**body, "offset": 3})["rows"]
    assert len(page) == 3 and not {r["chunk_id"] for r in page} & {r["chunk_id"] for r in first}
    for position, row in enumerate(page, start=1):
        out = _post(client, "/api/rag/explain", {**body, "offset": 3, "chunk_id": row["chunk_id"]})
        assert (out["stage"], out["position"], out["k"]) == ("included", position, 3)
        assert out["kth_score"] == pytest.approx(page[-1]["score"])
        assert [r["chunk_id"] for r in out["results"]] == [r["chunk_id"] for r in page]
    above = _post(client, "/api/rag/explain",
                  {**body, "offset": 3, "chunk_id": first[1]["chunk_id"]})  # fmt: skip
    assert (above["stage"], above["offset"], above["position"]) == ("before_offset", 3, 2)


def test_an_offset_page_of_the_planned_k_is_explained_as_the_search_returns_it(client, fused):
    body = {key: value for key, value in fused["body"].items() if key != "k"}  # k as planned
    page = _post(client, "/api/rag/search", {**body, "offset": 3})["rows"]
    last = page[-1]
    out = _post(client, "/api/rag/explain", {**body, "offset": 3, "chunk_id": last["chunk_id"]})
    assert (out["stage"], out["position"], out["k"]) == ("included", len(page), len(page))
