"""Weight profiles, per-space explanations, targeted searches and "why not this chunk"."""

from __future__ import annotations

import math

import httpx
import numpy as np
import psycopg
import pytest

import helpers
from helpers import AS_OF, as_json, brute_force, kind_value, random_corpus

TWELVE = [
    "e1_semantic", "e2_temporal_recent", "e3_temporal_periodic", "e4_temporal_positional",
    "e5_causal", "e6_sparse", "e7_code", "e8_graph", "e9_hdc", "e10_multimodal", "e11_entity",
    "e12_late_interaction",
]  # fmt: skip
BUILTIN_SPACE_WEIGHTS = {
    "semantic_search": [0.30, 0.05, 0.05, 0.05, 0.10, 0.05, 0.20, 0.05, 0.05, 0.05, 0.03, 0.02],
    "causal_reasoning": [0.15, 0.03, 0.03, 0.03, 0.45, 0.03, 0.10, 0.03, 0.03, 0.05, 0.05, 0.02],
    "code_search": [0.15, 0.02, 0.02, 0.35, 0.05, 0.03, 0.25, 0.02, 0.02, 0.03, 0.03, 0.03],
    "temporal_navigation": [0.15, 0.20, 0.20, 0.20, 0.05, 0.02, 0.05, 0.02, 0.03, 0.03, 0.03, 0.02],
    "fact_checking": [0.10, 0.02, 0.02, 0.02, 0.20, 0.05, 0.05, 0.02, 0.02, 0.05, 0.43, 0.02],
    "balanced": [0.083] * 11 + [0.087],
}
DIMS = 4  # every one of the twelve test spaces
# the twelve spaces' kinds: e6 holds term weights, e12 token vectors (late interaction)
KINDS = {"e6_sparse": "sparse", "e12_late_interaction": "multivector"}


def unit(seed: int, dims: int = DIMS) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(dims)
    return (v / np.linalg.norm(v)).tolist()


@pytest.fixture(scope="module")
def twelve(client):
    """The twelve named spaces, and 300 chunks with vectors in all of them."""
    for name in TWELVE:
        body = {"name": name, "dims": DIMS, "kind": KINDS.get(name, "dense")}
        assert client.post("/api/rag/spaces", json=body).status_code == 201
    docs, chunks = random_corpus(
        np.random.default_rng(12), "tw", n_docs=15, chunks_per_doc=20,
        spaces=dict.fromkeys(TWELVE, DIMS), missing=0.05, kinds=KINDS,
    )  # fmt: skip
    for doc in docs:
        assert client.post("/api/rag/documents", json=doc).status_code == 200
    values = {name: _query_value(i, KINDS.get(name, "dense")) for i, name in enumerate(TWELVE)}
    query = {name: as_json(value) for name, value in values.items()}
    return {"chunks": chunks, "query": query, "values": values, "prefix": "https://tw.example/"}


def _query_value(seed: int, kind: str) -> object:
    return kind_value(np.random.default_rng(seed), kind, np.asarray(unit(seed)))


def search(client, **body):
    r = client.post("/api/rag/search", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_builtins_are_present_after_migration(client):
    body = client.get("/api/rag/profiles").json()
    names = {p["name"] for p in body["profiles"]}
    assert set(BUILTIN_SPACE_WEIGHTS) | {"default"} <= names
    default = next(p for p in body["profiles"] if p["name"] == "default")
    assert default["builtin"] and default["w_rec"] == 0.1 and default["w_sig"] == 0.1


def test_profile_round_trip_with_versions(client, run_id):
    name = f"p_{run_id}"
    r = client.put(f"/api/rag/profiles/{name}", json={"w_rec": 0.5, "description": "first"})
    assert r.status_code == 200 and r.json()["profile"]["version"] == 1
    r = client.put(f"/api/rag/profiles/{name}", json={"w_sig": 0.7, "description": "second"})
    assert r.json()["profile"]["version"] == 2
    current = client.get(f"/api/rag/profiles/{name}").json()["profile"]
    assert (current["version"], current["w_sig"], current["w_rec"]) == (2, 0.7, None)
    old = client.get(f"/api/rag/profiles/{name}", params={"version": 1}).json()["profile"]
    assert (old["version"], old["w_rec"], old["description"]) == (1, 0.5, "first")
    versions = client.get(f"/api/rag/profiles/{name}/versions").json()["versions"]
    assert [v["version"] for v in versions] == [1, 2]
    assert client.delete(f"/api/rag/profiles/{name}").json() == {"ok": True, "deleted": name}
    assert client.get(f"/api/rag/profiles/{name}").status_code == 404
    assert client.delete(f"/api/rag/profiles/{name}").status_code == 404


def test_builtins_cannot_be_deleted_and_bad_profiles_are_refused(client):
    for name in ("balanced", "default"):
        r = client.delete(f"/api/rag/profiles/{name}")
        assert r.status_code == 409 and "cannot be deleted" in r.json()["error"]
    r = client.put("/api/rag/profiles/bad", json={"w_rec": 1.5})
    assert r.status_code == 400 and r.json()["error"] == "w_rec must be a finite number in [0,1]"
    r = client.put("/api/rag/profiles/bad", json={"space_weights": {"x": -1}})
    assert r.status_code == 400 and "space_weights" in r.json()["error"]
    assert client.put("/api/rag/profiles/Bad-Name", json={}).status_code in (400, 404)
    assert client.put("/api/rag/profiles/custom", json={}).status_code == 400
    assert client.get("/api/rag/profiles/nope", params={"version": 3}).status_code == 404
    # a profile that weighs every query 0 was stored, then broke every search using it
    before = client.get("/api/rag/profiles/default").json()
    for nothing in ({"w_cos": 0, "w_rec": 0, "w_sig": 0, "w_lex": 0},
                    {"w_cos": 0, "w_rec": 0, "w_sig": 0}):  # fmt: skip
        r = client.put("/api/rag/profiles/default", json=nothing)
        assert r.status_code == 400 and r.json()["field"] == "w_cos", r.text
        assert r.json()["error"].startswith("w_cos, w_rec and w_sig 0 with no w_lex weigh")
    assert client.get("/api/rag/profiles/default").json() == before


def test_a_profile_change_is_seen_by_the_very_next_query(client, twelve, run_id):
    name = f"live_{run_id}"
    q = twelve["query"]
    client.put(f"/api/rag/profiles/{name}", json={"w_cos": 0, "w_rec": 1, "w_sig": 0})
    first = search(client, embeddings=q, profile=name, k=5)
    assert first["weights"] == {"w_cos": 0.0, "w_rec": 1.0, "w_sig": 0.0}
    assert first["query_metadata"]["profile_used"]["version"] == 1
    client.put(f"/api/rag/profiles/{name}", json={"w_cos": 0, "w_rec": 0, "w_sig": 1})
    second = search(client, embeddings=q, profile=name, k=5)
    assert second["weights"] == {"w_cos": 0.0, "w_rec": 0.0, "w_sig": 1.0}
    assert second["query_metadata"]["profile_used"] == {"name": name, "version": 2}
    assert [r["chunk_id"] for r in first["rows"]] != [r["chunk_id"] for r in second["rows"]]


@pytest.mark.parametrize(
    ("profile", "fields", "expected"),
    [
        (None, {}, (0.8, 0.1, 0.1)),  # default profile (settings)
        ("semantic_search", {}, (0.85, 0.05, 0.10)),  # the profile
        ("semantic_search", {"w_rec": 0.3}, (0.85 / 1.25, 0.3 / 1.25, 0.1 / 1.25)),  # field wins
        ("semantic_search", {"w_cos": 0.1, "w_rec": 0, "w_sig": 0}, (1.0, 0.0, 0.0)),
        ("fact_checking", {"w_sig": 0.5}, (0.75 / 1.25, 0.0, 0.5 / 1.25)),
        (None, {"w_rec": 0.3}, (0.6, 0.3, 0.1)),  # field, then default profile
        ("only_sig", {}, (0.0, 0.1 / 1.1, 1.0 / 1.1)),  # unset w_cos: the rule, w_rec: default
    ],
)
def test_override_precedence(client, twelve, profile, fields, expected):
    client.put("/api/rag/profiles/only_sig", json={"w_sig": 1.0})
    body = search(client, embeddings=twelve["query"], k=3, **fields,
                  **({"profile": profile} if profile else {}))  # fmt: skip
    weights = body["weights"]
    assert (weights["w_cos"], weights["w_rec"], weights["w_sig"]) == pytest.approx(expected)
    assert body["query_metadata"]["weights_applied"]["w_cos"] == pytest.approx(expected[0])


def test_changing_the_default_profile_changes_the_defaults(client, twelve):
    try:
        client.put("/api/rag/profiles/default", json={"w_rec": 0.3, "w_sig": 0.2})
        body = search(client, embeddings=twelve["query"], k=3)
        assert body["weights"] == pytest.approx({"w_cos": 0.5, "w_rec": 0.3, "w_sig": 0.2})
        assert body["query_metadata"]["profile_used"]["name"] == "default"
    finally:
        client.put("/api/rag/profiles/default", json={"w_rec": 0.1, "w_sig": 0.1})


def test_search_defaults_are_the_settings_under_the_default_profile(client, twelve):
    defaults = client.get("/api/rag/search/defaults").json()
    assert defaults == {
        "ok": True, "k": 5, "max_k": 50, "max_offset": 950, "max_per_source": 3,
        "w_cos": None, "w_lex": None, "w_rec": 0.1, "w_sig": 0.1, "hybrid_vector_weight": 0.5,
        "recency": {"function": "inverse", "scale_days": 1.0, "half_life_days": None},
        "fusion": "weighted", "rrf_k": 60, "low_confidence_score": 0.25,
    }  # fmt: skip
    changed = {
        "w_rec": 0.3, "w_sig": 0.2, "hybrid_vector_weight": 0.7,
        "recency": {"function": "exponential", "half_life_days": 14},
    }  # fmt: skip
    try:
        assert client.put("/api/rag/profiles/default", json=changed).status_code == 200
        defaults = client.get("/api/rag/search/defaults").json()
        used = search(client, embeddings=twelve["query"], k=1)["query_metadata"]
    finally:
        client.put("/api/rag/profiles/default", json={"w_rec": 0.1, "w_sig": 0.1})
    assert (defaults["w_rec"], defaults["w_sig"]) == (0.3, 0.2)
    assert defaults["hybrid_vector_weight"] == 0.7
    assert defaults["recency"] == {
        "function": "exponential", "half_life_days": 14.0, "scale_days": None
    }  # fmt: skip
    applied = used["weights_applied"]
    assert (applied["w_rec"], applied["w_sig"]) == (defaults["w_rec"], defaults["w_sig"])


def test_search_defaults_need_a_key(service):
    answer = httpx.get(service.base_url + "/api/rag/search/defaults")
    assert answer.status_code == 401


@pytest.mark.parametrize("profile", list(BUILTIN_SPACE_WEIGHTS))
def test_twelve_space_builtins_are_applied_exactly(client, twelve, profile):
    for field in ("profile", "query_type"):
        body = search(client, embeddings=twelve["query"], k=5, **{field: profile}, explain=True)
        applied = body["query_metadata"]["weights_applied"]["space_weights"]
        expected = dict(zip(TWELVE, BUILTIN_SPACE_WEIGHTS[profile], strict=True))
        assert applied == pytest.approx(expected)
        assert body["query_metadata"]["spaces_searched"] == TWELVE


def test_profile_weights_for_a_subset_of_spaces(client, twelve):
    q = {name: twelve["query"][name] for name in ("e1_semantic", "e7_code")}
    applied = search(client, embeddings=q, profile="semantic_search")["query_metadata"]
    assert applied["weights_applied"]["space_weights"] == pytest.approx(
        {"e1_semantic": 0.30 / 0.50, "e7_code": 0.20 / 0.50}
    )
    client.put("/api/rag/profiles/names_none", json={"space_weights": {"e9_hdc": 1}})
    equal = search(client, embeddings=q, profile="names_none")["query_metadata"]
    assert equal["weights_applied"]["space_weights"] == {"e1_semantic": 0.5, "e7_code": 0.5}
    given = search(client, embeddings=q, profile="semantic_search",
                   space_weights={"e7_code": 1})["query_metadata"]  # fmt: skip
    assert given["weights_applied"]["space_weights"] == {"e1_semantic": 0.0, "e7_code": 1.0}


def test_custom_weights(client, twelve):
    n = len(client.get("/api/rag/spaces").json()["spaces"])  # the registry (default + twelve)
    good = [1 / n] * n
    body = search(client, embeddings=twelve["query"], query_type="custom", weights=good)
    assert body["query_metadata"]["weights_applied"]["space_weights"] == pytest.approx(
        dict.fromkeys(TWELVE, 1 / 12)
    )
    r = client.post("/api/rag/search", json={"embeddings": twelve["query"], "query_type": "custom"})
    assert r.status_code == 400 and r.json()["error"] == "missing_custom_weights"
    for weights in (
        [0.5] * n,
        [1 / n] * (n - 1),
        [1.5] + [0] * (n - 1),
        [-0.1, 1.1] + [0] * (n - 2),
    ):
        r = client.post(
            "/api/rag/search",
            json={"embeddings": twelve["query"], "query_type": "custom", "weights": weights},
        )
        body = r.json()
        assert r.status_code == 400 and body["error"] == "invalid_weights", body
        assert body["weights"] == pytest.approx(weights)
        assert body["sum"] == pytest.approx(math.fsum(weights))
    huge = [1e308, 1e308] + [0] * (n - 2)  # the sum overflowed: a 500
    for path in ("/api/rag/search", "/api/rag/explain", "/api/rag/facets"):
        explained = {"chunk_id": "any"} if path.endswith("explain") else {}
        body = {"embeddings": twelve["query"], "query_type": "custom", "weights": huge,
                "query": "any", **explained}  # fmt: skip
        r = client.post(path, json=body)
        assert r.status_code == 400 and r.json()["error"] == "invalid_weights", (path, r.text)
    close = [1 / n] * n
    close[0] += 0.009  # within 0.01 of 1
    assert (
        client.post(
            "/api/rag/search",
            json={"embeddings": twelve["query"], "query_type": "custom", "weights": close},
        ).status_code
        == 200
    )
    r = client.post("/api/rag/search", json={"embeddings": twelve["query"], "weights": good})
    assert r.status_code == 400 and "only for query_type custom" in r.json()["error"]


def test_unknown_profile_and_spaces(client, twelve):
    r = client.post("/api/rag/search", json={"embeddings": twelve["query"], "profile": "nope"})
    body = r.json()
    assert r.status_code == 400 and body["error"] == "invalid_profile"
    assert "balanced" in body["valid_profiles"]
    r = client.post(
        "/api/rag/search", json={"embeddings": twelve["query"], "active_spaces": ["e99"]}
    )
    body = r.json()
    assert r.status_code == 400 and body["error"] == "invalid_space" and body["space"] == "e99"
    assert set(TWELVE) <= set(body["valid_spaces"])
    r = client.post("/api/rag/search", json={"embeddings": {"zz": [1, 0]}})
    assert r.status_code == 400 and r.json()["error"] == "invalid_space"
    r = client.post(
        "/api/rag/search",
        json={"embeddings": {"e1_semantic": unit(1)}, "active_spaces": ["e2_temporal_recent"]},
    )
    assert r.status_code == 400 and "no vector for space" in r.json()["error"]
    r = client.post(
        "/api/rag/search",
        json={"embeddings": twelve["query"], "profile": "balanced", "query_type": "code_search"},
    )
    assert r.status_code == 400


def test_active_spaces_narrow_the_search(client, twelve):
    active = ["e5_causal", "e11_entity"]
    body = search(client, embeddings=twelve["query"], active_spaces=active, k=10,
                  src_prefix=twelve["prefix"], as_of=AS_OF.isoformat(), explain=True)  # fmt: skip
    assert body["query_metadata"]["spaces_searched"] == active
    q = {s: twelve["values"][s] for s in active}
    expected = brute_force(twelve["chunks"], q, dict.fromkeys(active, 0.5), (0.8, 0.1, 0.1))
    top = sorted(expected, key=lambda c: -expected[c])[:10]
    assert [r["chunk_id"] for r in body["rows"]] == top


def test_explanations_add_up(client, twelve):
    body = search(client, embeddings=twelve["query"], profile="causal_reasoning", k=8,
                  explain=True, src_prefix=twelve["prefix"], as_of=AS_OF.isoformat())  # fmt: skip
    by_id = {c.chunk_id: c for c in twelve["chunks"]}
    applied = body["query_metadata"]["weights_applied"]
    for row in body["rows"]:
        parts = row["components"]
        total = parts["sem"]["weighted"] + parts["rec"]["weighted"] + parts["sig"]["weighted"]
        assert total == pytest.approx(row["score"], abs=1e-9)
        assert parts["sem"]["weighted"] == pytest.approx(applied["w_cos"] * parts["sem"]["raw"])
        chunk = by_id[row["chunk_id"]]
        for space, similarity in row["per_space_scores"].items():
            if space in chunk.vectors:
                expected = helpers.similarity(twelve["values"][space], chunk.vectors[space])
                assert similarity == pytest.approx(expected, abs=1e-5)
            else:
                assert similarity is None
        top = row["top_contributing_spaces"]
        assert 1 <= len(top) <= 3
        contributions = [t["weighted_contribution"] for t in top]
        assert contributions == sorted(contributions, reverse=True)
        for t in top:
            sim = row["per_space_scores"][t["space_name"]]
            share = applied["space_weights"][t["space_name"]]
            assert t["weighted_contribution"] == pytest.approx(applied["w_cos"] * share * sim)
            assert t["space_index"] == TWELVE.index(t["space_name"]) + 2  # after "default"
        assert sum(
            applied["w_cos"] * applied["space_weights"][s] * (v or 0)
            for s, v in row["per_space_scores"].items()
        ) == pytest.approx(parts["sem"]["weighted"])
    plain = search(client, embeddings=twelve["query"], k=2)
    assert "components" not in plain["rows"][0] and "per_space_scores" not in plain["rows"][0]
    scores_only = search(client, embeddings=twelve["query"], k=2, include_per_space_scores=True)
    assert "per_space_scores" in scores_only["rows"][0]


def test_min_similarity_keeps_chunks_similar_enough(client, twelve):
    q = {"e1_semantic": twelve["query"]["e1_semantic"]}
    for strategy_body in ({}, {"exact": True}):
        body = search(client, embeddings=q, k=50, min_similarity=0.6, explain=True,
                      src_prefix=twelve["prefix"], max_per_source=0, **strategy_body)  # fmt: skip
        assert body["rows"]
        assert all(row["components"]["sem"]["raw"] >= 0.6 for row in body["rows"])
        expected = [
            c
            for c in twelve["chunks"]
            if "e1_semantic" in c.vectors
            and float(np.asarray(q["e1_semantic"]) @ c.vectors["e1_semantic"]) >= 0.6
        ]
        assert len(body["rows"]) == min(50, len(expected))


def test_explain_a_chunk_in_the_results_filtered_out_and_outscored(client, twelve):
    base = {"embeddings": twelve["query"], "k": 5, "profile": "balanced",
            "src_prefix": twelve["prefix"], "as_of": AS_OF.isoformat()}  # fmt: skip
    results = search(client, **base)["rows"]
    inside = client.post(
        "/api/rag/explain", json={**base, "chunk_id": results[2]["chunk_id"]}
    ).json()
    assert inside["stage"] == "included" and inside["position"] == 3 and inside["rank"] == 3
    assert inside["score"] == pytest.approx(results[2]["score"])
    parts = inside["components"]
    assert sum(p["weighted"] for p in parts.values()) == pytest.approx(inside["score"])

    other_doc = next(c for c in twelve["chunks"] if c.doc_id != results[0]["doc_id"])
    filtered = client.post(
        "/api/rag/explain",
        json={**base, "doc_ids": [results[0]["doc_id"]], "chunk_id": other_doc.chunk_id},
    ).json()
    assert filtered["stage"] == "filter" and filtered["failed_filters"] == ["doc_ids"]
    assert filtered["rank"] is None

    weights = {s: w for s, w in zip(
        TWELVE, BUILTIN_SPACE_WEIGHTS["balanced"], strict=True)}  # fmt: skip
    q = twelve["values"]
    total = sum(weights.values())
    scores = brute_force(twelve["chunks"], q, {s: w / total for s, w in weights.items()},
                         (0.6, 0.2, 0.2))  # fmt: skip
    ranked = sorted(scores, key=lambda c: (-scores[c], c))
    loser = ranked[11]
    out = client.post("/api/rag/explain", json={**base, "chunk_id": loser}).json()
    assert out["stage"] == "outscored" and out["rank"] == 12
    assert out["kth_score"] == pytest.approx(scores[ranked[4]], abs=1e-6)
    assert out["short_by"] == pytest.approx(scores[ranked[4]] - scores[loser], abs=1e-6)
    missing = client.post("/api/rag/explain", json={**base, "chunk_id": "no-such-chunk"})
    assert missing.status_code == 404


def test_explain_names_the_floor_that_kept_a_chunk_out(client, twelve):
    base = {"embeddings": twelve["query"], "k": 5, "src_prefix": twelve["prefix"]}
    results = search(client, **{**base, "k": 40})["rows"]
    low = results[-1]
    r = client.post("/api/rag/explain", json={**base, "chunk_id": low["chunk_id"],
                                               "min_score": results[0]["score"]})  # fmt: skip
    assert r.json()["stage"] == "min_score" and r.json()["short_by"] > 0
    r = client.post("/api/rag/explain", json={**base, "chunk_id": low["chunk_id"],
                                               "min_similarity": 0.99})  # fmt: skip
    assert r.json()["stage"] == "min_similarity"


def test_goals_alignment_and_purpose_search(client, twelve, run_id):
    goal = f"north_star_{run_id}"
    direction = unit(77)
    r = client.put(
        f"/api/rag/goals/{goal}",
        json={"embeddings": {"e5_causal": direction}, "description": "where we head"},
    )
    assert r.status_code == 200 and r.json()["spaces"] == ["e5_causal"]
    assert goal in [g["name"] for g in client.get("/api/rag/goals").json()["goals"]]
    body = search(client, embeddings=twelve["query"], k=5, goal=goal,
                  include_purpose_alignment=True)  # fmt: skip
    by_id = {c.chunk_id: c for c in twelve["chunks"]}
    for row in body["rows"]:
        chunk = by_id.get(row["chunk_id"])
        if chunk and "e5_causal" in chunk.vectors:
            expected = float(np.asarray(direction) @ chunk.vectors["e5_causal"])
            assert row["purpose_alignment"] == pytest.approx(expected, abs=1e-5)
            assert row["purpose_space"] == "e5_causal"

    purpose = client.post(
        "/api/rag/search/purpose", json={"goal": goal, "top_k": 7, "src_prefix": twelve["prefix"]}
    ).json()
    alignments = {c.chunk_id: float(np.asarray(direction) @ c.vectors["e5_causal"])
                  for c in twelve["chunks"] if "e5_causal" in c.vectors}  # fmt: skip
    best = sorted(alignments, key=lambda c: -alignments[c])[:7]
    assert purpose["space"] == "e5_causal"
    assert len({r["chunk_id"] for r in purpose["results"]} & set(best)) >= 6
    for row in purpose["results"]:
        assert row["alignment"] == pytest.approx(alignments[row["chunk_id"]], abs=1e-5)
    floor = alignments[best[2]] - 1e-6
    capped = client.post("/api/rag/search/purpose", json={
        "purpose_vector": direction, "space": "e5_causal", "top_k": 7, "min_alignment": floor,
        "src_prefix": twelve["prefix"]}).json()  # fmt: skip
    assert all(r["alignment"] >= floor for r in capped["results"])

    assert client.post("/api/rag/search/purpose", json={"top_k": 3}).status_code == 400
    r = client.put(f"/api/rag/goals/{goal}", json={"embeddings": {"e5_causal": [1, 2]}})
    assert r.status_code == 400 and r.json()["expected"] == DIMS
    r = client.post("/api/rag/search", json={"embeddings": twelve["query"],
                                              "include_purpose_alignment": True})  # fmt: skip
    assert r.status_code == 400 and "needs goal" in r.json()["error"]
    assert client.delete(f"/api/rag/goals/{goal}").status_code == 200
    assert client.get(f"/api/rag/goals/{goal}").status_code == 404


def test_dropping_a_space_says_what_went_with_it(client, run_id):
    # its goals' vectors went in silence, and profiles kept weighing it by name
    space, kept = f"going_{run_id}", f"kept_{run_id}"
    for name in (space, kept):
        assert client.post("/api/rag/spaces", json={"name": name, "dims": 2}).status_code == 201
    only, both, weighing = f"only_{run_id}", f"both_{run_id}", f"weighs_{run_id}"
    put = {only: {space: [1, 0]}, both: {space: [0, 1], kept: [1, 1]}}
    for goal, embeddings in put.items():
        assert (
            client.put(f"/api/rag/goals/{goal}", json={"embeddings": embeddings}).status_code == 200
        )
    profile = {"space_weights": {space: 1}}
    assert client.put(f"/api/rag/profiles/{weighing}", json=profile).status_code == 200
    said = client.delete(f"/api/rag/spaces/{space}").json()
    expected = {"goals_removed": [only], "goals_losing_a_vector": [both],
                "profiles_weighing_it": [weighing]}  # fmt: skip
    assert said == {"ok": True, "dropped": space, **expected}
    assert client.get(f"/api/rag/goals/{only}").status_code == 404
    assert client.get(f"/api/rag/goals/{both}").json()["spaces"] == [kept]
    client.delete(f"/api/rag/goals/{both}")
    client.delete(f"/api/rag/profiles/{weighing}")
    client.delete(f"/api/rag/spaces/{kept}")


def test_a_profile_stored_with_a_recency_parameter_now_refused_keeps_searching(
    client, db_url, run_id
):
    # half_life_days with inverse is refused since; one stored before still searches
    name = f"legacy_{run_id}"
    stored = {"w_rec": 0.5, "recency": {"function": "inverse", "scale_days": 2.0}}
    assert client.put(f"/api/rag/profiles/{name}", json=stored).status_code == 200
    legacy = '{"function": "inverse", "scale_days": 2.0, "half_life_days": 5.0}'
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("UPDATE rag.profile_versions SET recency = %s::jsonb WHERE name = %s",
                     (legacy, name))  # fmt: skip
    r = client.post("/api/rag/search", json={"embedding": unit(3, 384), "profile": name, "k": 3})
    assert r.status_code == 200, r.text  # it was a 400 naming half_life_days
    client.delete(f"/api/rag/profiles/{name}")
