"""Keyword relevance and hybrid search through the API, on a database of this module's
own, checked against a BM25 computed by hand from the words of each chunk.

Every word used is an English word that the 'english' text search configuration keeps
(no stop words) and stems to a lexeme of its own, so the hand count of terms and
lengths is the database's.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import psycopg
import pytest

from app.search.evidence import evidence_of

K1, B = 1.2, 0.75
FRUIT = ["apple", "banana", "cherry", "grape", "melon", "lemon", "mango", "peach", "plum"]
DIMS = 384


def _unit(v: np.ndarray) -> list[float]:
    return (v / np.linalg.norm(v)).astype(np.float32).tolist()


def _build() -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """12 documents of 4 chunks (3 sources), plus one long chunk about a zebra."""
    rng = np.random.default_rng(5)
    docs, chunks = [], {}
    for d in range(12):
        body = []
        for c in range(4):
            words = rng.choice(FRUIT, size=int(rng.integers(3, 12))).tolist()
            vector = _unit(rng.standard_normal(DIMS))
            chunk_id = f"h-{d}-{c}"
            body.append({"chunk_id": chunk_id, "chunk": " ".join(words), "embedding": vector,
                         "created_at": "2026-01-01T00:00:00Z"})  # fmt: skip
            chunks[chunk_id] = {"words": ["fruit", *words], "vector": np.array(vector),
                                "doc_id": f"hd-{d}", "src": f"src-{d % 3}"}  # fmt: skip
        docs.append({"doc_id": f"hd-{d}", "src": f"src-{d % 3}", "title": "fruit", "chunks": body})
    long_text = "zebra " + " ".join(["savanna"] * 40)
    vector = _unit(rng.standard_normal(DIMS))
    docs.append({"doc_id": "hd-zebra", "title": "fruit", "chunks": [
        {"chunk_id": "h-zebra", "chunk": long_text, "embedding": vector,
         "created_at": "2026-01-01T00:00:00Z"}]})  # fmt: skip
    chunks["h-zebra"] = {"words": ["fruit", *long_text.split()], "vector": np.array(vector),
                         "doc_id": "hd-zebra", "src": ""}  # fmt: skip
    return docs, chunks


def bm25(chunks: dict[str, dict[str, Any]], query: list[str]) -> dict[str, float]:
    """lex of every chunk holding a query term: Σ (idf_t / Σ idf) · tf / (tf + K)."""
    n = len(chunks)
    avg = sum(len(c["words"]) for c in chunks.values()) / n
    df = Counter(word for c in chunks.values() for word in set(c["words"]))
    terms = sorted({t for t in query if df[t] > 0})
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
    total = sum(idf.values())
    scores = {}
    for chunk_id, chunk in chunks.items():
        tf = Counter(chunk["words"])
        saturation = K1 * (1 - B + B * len(chunk["words"]) / avg)
        if any(tf[t] for t in terms):
            scores[chunk_id] = sum(idf[t] / total * tf[t] / (tf[t] + saturation) for t in terms)
    return scores


def best_under_cap(scores: dict[str, float], chunks: dict, k: int, cap: int) -> list[str]:
    """The best k chunk ids (ties by chunk_id) with at most ``cap`` per source."""
    taken: Counter[str] = Counter()
    chosen = []
    for chunk_id in sorted(scores, key=lambda c: (-scores[c], c)):
        source = chunks[chunk_id]["src"] or chunks[chunk_id]["doc_id"]
        if cap and taken[source] >= cap:
            continue
        taken[source] += 1
        chosen.append(chunk_id)
    return chosen[:k]


@pytest.fixture(scope="module")
def corpus(client):
    docs, chunks = _build()
    for doc in docs:
        assert client.post("/api/rag/documents", json=doc).status_code == 200, doc["doc_id"]
    return chunks


def search(client, **body: Any) -> dict[str, Any]:
    r = client.post("/api/rag/search", json=body)
    assert r.status_code == 200, r.text
    return r.json()


KEYWORDS_ONLY = {"w_rec": 0.0, "w_sig": 0.0, "max_per_source": 0}


@pytest.mark.parametrize("query", ["apple", "cherry plum", "fruit melon mango kiwi", "zebra"])
def test_keyword_scores_are_hand_computed_bm25(client, corpus, query):
    expected = bm25(corpus, query.split())
    body = search(client, query=query, k=50, **KEYWORDS_ONLY)
    assert body["weights"]["w_lex"] == 1.0 and body["weights"]["w_cos"] == 0.0
    got = {row["chunk_id"]: row["lex"] for row in body["rows"]}
    assert got == pytest.approx(expected, abs=1e-6)
    assert [row["chunk_id"] for row in body["rows"]] == sorted(
        expected, key=lambda c: (-expected[c], c)
    )
    assert all(row["score"] == pytest.approx(row["lex"]) for row in body["rows"])


def test_only_chunks_with_a_query_term_are_eligible_for_keywords_alone(client, corpus):
    body = search(client, query="zebra kiwi", k=50, **KEYWORDS_ONLY)
    assert [row["chunk_id"] for row in body["rows"]] == ["h-zebra"]
    assert search(client, query="kiwi", k=50, **KEYWORDS_ONLY)["rows"] == []


def test_statistics_follow_inserts_and_deletes(client, corpus, db_url):
    def stats() -> tuple[int, int, int]:
        with psycopg.connect(db_url) as conn:
            docs, tokens = conn.execute(
                "SELECT chunks, tokens FROM rag.collection_counts WHERE collection_id = 1"
            ).fetchone()
            (df,) = conn.execute(
                "SELECT df FROM rag.lex_terms WHERE term = 'kiwi' AND collection_id = 1"
            ).fetchone() or (0,)
            return docs, tokens, df

    before = stats()
    chunk = {"chunk_id": "h-kiwi", "chunk": "kiwi kiwi apple", "embedding": _unit(np.ones(DIMS))}
    doc = {"doc_id": "hd-kiwi", "title": "fruit", "chunks": [chunk]}
    assert client.post("/api/rag/documents", json=doc).status_code == 200
    assert stats() == (before[0] + 1, before[1] + 4, 1)
    with_kiwi = {**corpus, "h-kiwi": {"words": ["fruit", "kiwi", "kiwi", "apple"], "src": "",
                                      "doc_id": "hd-kiwi", "vector": np.ones(DIMS)}}  # fmt: skip
    body = search(client, query="kiwi apple", k=50, **KEYWORDS_ONLY)
    assert {r["chunk_id"]: r["lex"] for r in body["rows"]} == pytest.approx(
        bm25(with_kiwi, ["kiwi", "apple"]), abs=1e-6
    )
    assert client.delete("/api/rag/documents/hd-kiwi").status_code == 200
    assert stats() == (before[0], before[1], 0)


def test_hybrid_score_is_the_blend_over_all_chunks(client, corpus):
    rng = np.random.default_rng(9)
    query_vector = np.array(_unit(rng.standard_normal(DIMS)))
    lex = bm25(corpus, ["apple", "grape"])
    for exact in (False, True):
        body = search(client, query="apple grape", embedding=query_vector.tolist(), k=10,
                      hybrid_vector_weight=0.3, exact=exact, **KEYWORDS_ONLY)  # fmt: skip
        assert body["weights"]["w_cos"] == pytest.approx(0.3)
        expected = {c: 0.3 * float(ch["vector"] @ query_vector) + 0.7 * lex.get(c, 0.0)
                    for c, ch in corpus.items()}  # fmt: skip
        ranked = sorted(expected, key=lambda c: (-expected[c], c))[:10]
        assert [row["chunk_id"] for row in body["rows"]] == ranked
        for row in body["rows"]:
            assert row["score"] == pytest.approx(expected[row["chunk_id"]], abs=1e-5)


@pytest.mark.parametrize("cap", [1, 2, 3])
@pytest.mark.parametrize("mode", ["keywords", "vector", "vector_exact"])
def test_max_per_source_keeps_the_best_k_under_the_cap(client, corpus, cap, mode):
    query_vector = np.array(_unit(np.random.default_rng(cap).standard_normal(DIMS)))
    if mode == "keywords":
        scores = bm25(corpus, ["banana", "lemon"])
        body = search(client, query="banana lemon", k=8, max_per_source=cap, w_rec=0, w_sig=0)
    else:
        scores = {c: float(ch["vector"] @ query_vector) for c, ch in corpus.items()}
        body = search(client, embedding=query_vector.tolist(), k=8, max_per_source=cap,
                      w_rec=0, w_sig=0, exact=mode == "vector_exact")  # fmt: skip
    expected = best_under_cap(scores, corpus, 8, cap)
    assert [row["chunk_id"] for row in body["rows"]] == expected
    assert body["query_metadata"]["max_per_source"] == cap
    assert len(body["rows"]) == min(8, len(expected))


def test_max_per_source_defaults_to_the_setting(client, corpus):
    body = search(client, query="fruit", k=20, w_rec=0, w_sig=0)
    assert body["query_metadata"]["max_per_source"] == 3
    sources = Counter(row["src"] or row["doc_id"] for row in body["rows"])
    assert max(sources.values()) <= 3 and len(body["rows"]) == 10  # 3 sources + the zebra


def test_offset_pages_continue_the_ranking(client, corpus):
    whole = search(client, query="peach plum", k=12, **KEYWORDS_ONLY)["rows"]
    first = search(client, query="peach plum", k=6, **KEYWORDS_ONLY)["rows"]
    second = search(client, query="peach plum", k=6, offset=6, **KEYWORDS_ONLY)["rows"]
    assert [r["chunk_id"] for r in first + second] == [r["chunk_id"] for r in whole]


def test_diversity_reorders_near_duplicates(client):
    rng = np.random.default_rng(21)
    base = rng.standard_normal(DIMS)
    other = rng.standard_normal(DIMS)
    query = base + 0.55 * other
    vectors = {"dup-a": base, "dup-b": base + 0.01 * rng.standard_normal(DIMS), "diff": other}
    doc = {"doc_id": "hd-mmr", "chunks": [{"chunk_id": c, "chunk": "mmr", "embedding": _unit(v)}
                                          for c, v in vectors.items()]}  # fmt: skip
    assert client.post("/api/rag/documents", json=doc).status_code == 200
    body = {"embedding": _unit(query), "k": 3, "w_rec": 0, "w_sig": 0, "max_per_source": 0}
    plain = [r["chunk_id"] for r in search(client, **body)["rows"]]
    diverse = [r["chunk_id"] for r in search(client, **body, diversity_factor=0.5)["rows"]]
    assert sorted(plain[:2]) == ["dup-a", "dup-b"] and plain[2] == "diff"
    assert diverse[:2] == [plain[0], "diff"]
    assert plain[1] not in diverse  # the near-duplicate gives way to something new
    client.delete("/api/rag/documents/hd-mmr")


def test_classification_is_reported_and_request_weights_win(client, corpus):
    body = search(client, query="`melon_mango`", embedding=_unit(np.ones(DIMS)), w_rec=0,
                  w_sig=0, max_per_source=0)  # fmt: skip
    found = body["classification"]
    assert (found["class"], found["reason"]) == ("lookup", "a backticked name")
    share = found["evidence"]["vector_share"]  # the balance comes from the evidence
    assert found["vector_share"] == share
    assert found["weights"]["w_cos"] == pytest.approx(share)
    assert found["weights"]["w_lex"] == pytest.approx(1 - share)
    assert body["k"] == 5  # the class's suggested k
    override = search(client, query="`melon_mango`", embedding=_unit(np.ones(DIMS)), w_rec=0,
                      w_sig=0, w_lex=0.9, k=4)  # fmt: skip
    assert override["weights"]["w_lex"] == pytest.approx(0.9) and override["k"] == 4
    assert (
        "classification" not in override
        or override["classification"]["weights"] == override["weights"]
    )


@pytest.mark.parametrize(
    ("text", "share"),
    [("zebra savanna", 0.3), ("fruit", 0.5)],  # one chunk has the words / every chunk has it
)
def test_auto_moves_the_balance_only_on_sure_evidence(client, corpus, text, share):
    common = {"query": text, "embedding": _unit(np.ones(DIMS)), "w_rec": 0, "w_sig": 0,
              "max_per_source": 0}  # fmt: skip
    probe = search(client, **common, profile="default", hybrid_vector_weight=0.5, k=10,
                   explain=True)  # fmt: skip
    parts = [{name: row["components"][name]["raw"] for name in ("sem", "lex")}
             for row in probe["rows"]]  # fmt: skip
    auto = search(client, **common, profile="auto")
    evidence = auto["classification"]["evidence"]
    assert evidence["lean"] == pytest.approx(evidence_of(parts).lean, abs=1e-3)
    assert evidence["vector_share"] == share == auto["classification"]["vector_share"]
    assert auto["weights"]["w_cos"] == pytest.approx(share)
    if share == 0.5:  # the default balance: the probe's own ranking is the answer
        assert [r["chunk_id"] for r in auto["rows"]] == [r["chunk_id"] for r in probe["rows"]]


def test_low_confidence_retry_is_reported(client, corpus):
    body = search(client, query="`zebra`", w_rec=0, w_sig=0)
    retry = body["classification"]["retry"]
    assert body["query_metadata"]["low_confidence_retry"] is True
    assert retry["class_used"] == "general" and retry["first_best_relevance"] < 0.25
    assert [row["chunk_id"] for row in body["rows"]] == ["h-zebra"]
    confident = search(client, query="`apple`", w_rec=0, w_sig=0)
    assert confident["query_metadata"]["low_confidence_retry"] is False


def test_explain_describes_the_ranking_the_retry_returned(client, corpus):
    common = {"query": "`zebra`", "w_rec": 0, "w_sig": 0}
    body = search(client, **common)
    assert body["query_metadata"]["low_confidence_retry"] is True
    r = client.post("/api/rag/explain", json={**common, "chunk_id": "h-zebra"})
    assert r.status_code == 200, r.text
    explained = r.json()
    assert [row["chunk_id"] for row in explained["results"]] == ["h-zebra"]
    assert explained["stage"] == "included"
    assert explained["weights_applied"] == body["query_metadata"]["weights_applied"]
    # the retry's class (general) suggests 10 rows where the first (lookup) suggested 5
    assert explained["k"] == body["k"] == 10


def test_explain_names_diversity_when_it_chose_other_rows(client, corpus):
    common = {"query": "fruit", "embedding": _unit(np.ones(DIMS)), "w_rec": 0, "w_sig": 0,
              "max_per_source": 0, "k": 3, "profile": "default"}  # fmt: skip
    plain = [row["chunk_id"] for row in search(client, **common)["rows"]]
    diverse = search(client, **common, diversity_factor=0.9)["rows"]
    passed_over = next(c for c in plain if c not in {row["chunk_id"] for row in diverse})
    r = client.post("/api/rag/explain",
                    json={**common, "diversity_factor": 0.9, "chunk_id": passed_over})  # fmt: skip
    assert r.status_code == 200, r.text
    explained = r.json()
    assert explained["stage"] == "diversity"
    assert [row["chunk_id"] for row in explained["results"]] == [r["chunk_id"] for r in diverse]


def test_explain_reports_the_keyword_component(client, corpus):
    body = search(client, query="cherry", embedding=_unit(np.ones(DIMS)), explain=True, k=3,
                  hybrid_vector_weight=0.5, w_rec=0.1, w_sig=0.1)  # fmt: skip
    for row in body["rows"]:
        parts = row["components"]
        assert parts["lex"]["raw"] == pytest.approx(row["lex"])
        assert parts["lex"]["weighted"] == pytest.approx(body["weights"]["w_lex"] * row["lex"])
        assert sum(p["weighted"] for p in parts.values()) == pytest.approx(row["score"])


def test_tag_filters_any_and_all(client):
    doc = {"doc_id": "hd-tags", "category": "warning", "chunks": [
        {"chunk_id": "t-slow", "chunk": "slow startup", "embedding": _unit(np.ones(DIMS))},
        {"chunk_id": "t-crash", "chunk": "crash on exit", "embedding": _unit(np.ones(DIMS))},
        {"chunk_id": "t-plain", "chunk": "plain words", "embedding": _unit(np.ones(DIMS)),
         "tags": ["warning"]},
    ]}  # fmt: skip
    assert client.post("/api/rag/documents", json=doc).status_code == 200
    common = {"embedding": _unit(np.ones(DIMS)), "k": 10, "max_per_source": 0}
    any_rows = search(client, **common, tags_any=["perf", "bugfix"])["rows"]
    assert sorted(r["chunk_id"] for r in any_rows) == ["t-crash", "t-slow"]
    all_rows = search(client, **common, tags_all=["warning", "perf"])["rows"]
    assert [r["chunk_id"] for r in all_rows] == ["t-slow"]
    warned = search(client, **common, tags_all=["warning"])["rows"]
    assert sorted(r["chunk_id"] for r in warned) == ["t-crash", "t-plain", "t-slow"]
    client.delete("/api/rag/documents/hd-tags")


def test_why_not_names_the_source_cap(client, corpus):
    """A chunk that outscores the last row but whose source already has its rows."""
    common = {"query": "peach plum", "w_rec": 0.0, "w_sig": 0.0, "k": 3}
    uncapped = search(client, **common, max_per_source=0)["rows"]
    capped = search(client, **common, max_per_source=1)["rows"]
    held_back = next(r for r in uncapped if r["chunk_id"] not in {c["chunk_id"] for c in capped})
    body = {**common, "max_per_source": 1, "chunk_id": held_back["chunk_id"]}
    r = client.post("/api/rag/explain", json=body)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["stage"] == "max_per_source"
    assert answer["source"] == corpus[held_back["chunk_id"]]["src"]
    assert answer["rows_of_source"] == 1


def test_auto_with_diversity_reranks_the_default_balance_pool(client, corpus):
    """The evidence is read from the pool diversity re-ranks; unsure, it is the answer."""
    common = {"query": "fruit", "embedding": _unit(np.ones(DIMS)), "w_rec": 0, "w_sig": 0,
              "max_per_source": 0, "k": 5, "diversity_factor": 0.5}  # fmt: skip
    auto = search(client, **common, profile="auto")
    fixed = search(client, **common, profile="default", hybrid_vector_weight=0.5)
    assert auto["classification"]["evidence"]["vector_share"] == 0.5
    assert [r["chunk_id"] for r in auto["rows"]] == [r["chunk_id"] for r in fixed["rows"]]
