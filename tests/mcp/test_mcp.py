"""``ragsearch mcp`` driven as an agent drives it: the SDK's stdio client starts the
server as a subprocess, lists its tools and calls them; every answer is checked against
the REST API on the same database."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from mcp_session import McpSession

WORDS = ["parser", "config", "cache", "latency", "vector", "index", "token", "stream",
         "buffer", "schema", "query", "socket"]  # fmt: skip
DIMS = 384


def _vector(rng: np.random.Generator) -> list[float]:
    v = rng.standard_normal(DIMS)
    return (v / np.linalg.norm(v)).astype(np.float32).tolist()


@pytest.fixture(scope="module")
def corpus(client) -> dict[str, Any]:
    """80 chunks in 20 documents, with words to match and vectors to rank."""
    rng = np.random.default_rng(6)
    for d in range(20):
        chunks = [{"chunk_id": f"mcp-{d}-{c}", "created_at": f"2026-0{1 + c % 9}-01T00:00:00Z",
                   "chunk": " ".join(rng.choice(WORDS, size=8)), "embedding": _vector(rng),
                   "signal": float(rng.uniform())} for c in range(4)]  # fmt: skip
        doc = {"doc_id": f"mcp-doc-{d}", "title": f"notes {d}", "chunks": chunks}
        assert client.post("/api/rag/documents", json=doc).status_code == 200
    return {"query": _vector(rng)}


def _env(db_url: str, **extra: str) -> dict[str, str]:
    return {"DATABASE_URL": db_url, "RAG_EMBEDDER": "none", "RAG_LOG_LEVEL": "warning", **extra}


@pytest.fixture(scope="module")
def mcp(db_url: str, corpus) -> Iterator[McpSession]:
    session = McpSession(_env(db_url))
    yield session
    session.close()


def rest(client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def assert_same_ranking(got: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    """The same chunks in the same order, with the same scores up to the drift of recency
    between two calls made a few milliseconds apart."""
    assert [row["chunk_id"] for row in got] == [row["chunk_id"] for row in expected]
    scores = [row["score"] for row in expected]
    assert [row["score"] for row in got] == pytest.approx(scores, abs=1e-6)


def test_tools_are_listed_with_described_schemas(mcp):
    tools = {tool.name: tool for tool in mcp.tools()}
    assert set(tools) == {"db.rag_search", "search_documents", "get_weight_profiles",
                          "search_single_space", "remember", "forget"}  # fmt: skip
    for tool in tools.values():
        assert len(tool.description) > 40
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{tool.name}.{name} has no description"
    assert tools["db.rag_search"].input_schema["required"] == ["embedding"]
    assert tools["search_documents"].input_schema["required"] == ["query"]
    weights = tools["search_documents"].input_schema["properties"]["weights"]["properties"]
    assert set(weights) == {"embedding", "lexical", "initial", "reranker"}


def test_rag_search_matches_rest_with_its_defaults(mcp, client, corpus):
    answer = mcp.ok("db.rag_search", {"embedding": corpus["query"]})
    expected = rest(client, "/api/rag/search",
                    {"embedding": corpus["query"], "k": 5, "w_rec": 0.1, "w_sig": 0.1})  # fmt: skip
    assert {"ok", "k", "weights", "rows"} <= set(answer)
    assert answer["k"] == 5 and answer["weights"] == expected["weights"]
    assert_same_ranking(answer["rows"], expected["rows"])


def test_rag_search_passes_weights_like_rest(mcp, client, corpus):
    body = {"embedding": corpus["query"], "k": 7, "w_rec": 0.5, "w_sig": 0.3}
    answer = mcp.ok("db.rag_search", body)
    assert_same_ranking(answer["rows"], rest(client, "/api/rag/search", body)["rows"])
    assert "weights_replaced" not in answer


@pytest.mark.parametrize(("k", "used"), [(500, 50), (0, 1), (-3, 1), (7.4, 7), ("9", 9)])
def test_k_out_of_range_is_clamped_with_a_note(mcp, corpus, k, used):
    answer = mcp.ok("db.rag_search", {"embedding": corpus["query"], "k": k})
    assert answer["k"] == used and len(answer["rows"]) == used
    assert any(note.startswith("k=") for note in answer["notes"])


def test_rag_search_invalid_weight_falls_back_to_default(mcp, client, corpus):
    answer = mcp.ok("db.rag_search", {"embedding": corpus["query"], "w_rec": "often"})
    expected = rest(client, "/api/rag/search", {"embedding": corpus["query"]})
    assert_same_ranking(answer["rows"], expected["rows"])
    replaced = {"name": "w_rec", "given": "often", "reason": "not a number (string)", "used": 0.1}
    assert answer["weights_replaced"] == [replaced]


def test_errors_come_back_as_tool_errors_with_the_rest_message(mcp, client):
    result = mcp.call("db.rag_search", {"embedding": [0.1, 0.2, 0.3]})
    r = client.post("/api/rag/search", json={"embedding": [0.1, 0.2, 0.3]})
    assert result.is_error and r.status_code == 400
    assert json.dumps(r.json()["error"])[1:-1] in result.content[0].text
    result = mcp.call("search_single_space", {"space": "nope", "query_embedding": [0.1] * DIMS})
    assert result.is_error and "invalid_space" in result.content[0].text
    result = mcp.call("search_documents", {"query": "   "})
    assert result.is_error and "query (string) required" in result.content[0].text


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [("db.rag_search", {}, {"error": "embedding: field required", "field": "embedding"}),
     ("forget", {"doc_id": ["a"]},
      {"error": "doc_id: input should be a valid string", "field": "doc_id"})],
)  # fmt: skip
def test_arguments_that_break_the_schema_are_said_as_rest_says_a_field(mcp, tool, arguments, said):
    # pydantic's report came back, its error codes and a link to its site
    result = mcp.call(tool, arguments)
    text = result.content[0].text
    assert result.is_error and "pydantic" not in text and "type=" not in text
    assert json.loads(text[text.index("{") :]) == said


def test_search_documents_without_overrides_is_the_default_search(mcp, client, corpus):
    answer = mcp.ok("search_documents", {"query": "parser cache"})
    expected = rest(client, "/api/rag/search", {"query": "parser cache", "k": 5})
    assert_same_ranking(answer["rows"], expected["rows"])
    assert answer["rows"]
    assert answer["weights_replaced"] == [] and answer["notes"] == []
    assert answer["weights_applied"] == {
        "embedding": expected["weights"]["w_cos"], "lexical": expected["weights"]["w_lex"],
        "initial": 1.0, "reranker": 0.0,
    }  # fmt: skip
    assert answer["reranker"] == {"configured": False, "used": False,
                                  "note": "no reranker configured"}  # fmt: skip


def test_a_valid_lexical_weight_overrides_the_default(mcp, client):
    answer = mcp.ok("search_documents", {"query": "socket buffer", "top_k": 8,
                                         "weights": {"lexical": 0.9}})  # fmt: skip
    expected = rest(client, "/api/rag/search", {"query": "socket buffer", "k": 8, "w_lex": 0.9})
    assert_same_ranking(answer["rows"], expected["rows"])
    assert answer["weights_applied"]["lexical"] == expected["weights"]["w_lex"]
    assert answer["weights_replaced"] == []


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        (-0.2, "outside [0,1]"),
        (1.5, "outside [0,1]"),
        ("NaN", "NaN"),
        ("Infinity", "infinite"),
        ("-inf", "infinite"),
        ("heavy", "not a number (string)"),
        (True, "not a number (boolean)"),
        (None, "not a number (null)"),
        ([0.3], "not a number (list)"),
        ({"value": 0.3}, "not a number (dict)"),
    ],
)
def test_invalid_weight_falls_back_to_default_and_is_reported(mcp, client, given, reason):
    answer = mcp.ok("search_documents", {"query": "stream schema", "weights": {"lexical": given}})
    default = rest(client, "/api/rag/search", {"query": "stream schema", "k": 5})
    assert_same_ranking(answer["rows"], default["rows"])
    assert answer["weights_replaced"] == [{"name": "lexical", "given": given, "reason": reason,
                                           "used": default["weights"]["w_lex"]}]  # fmt: skip


def test_semantic_weight_without_an_embedder_is_reported(mcp, client):
    answer = mcp.ok("search_documents", {"query": "token index",
                                         "weights": {"embedding": 0.6, "initial": 2}})  # fmt: skip
    replaced = {item["name"]: item for item in answer["weights_replaced"]}
    assert "no embedder" in replaced["embedding"]["reason"]
    assert replaced["initial"]["reason"] == "outside [0,1]" and replaced["initial"]["used"] == 1.0
    expected = rest(client, "/api/rag/search", {"query": "token index", "k": 5})
    assert_same_ranking(answer["rows"], expected["rows"])


def test_reranker_weight_without_a_reranker_is_noted(mcp):
    answer = mcp.ok("search_documents", {"query": "latency", "top_k": 60,
                                         "weights": {"reranker": 0.7}, "foo": 1})  # fmt: skip
    assert answer["k"] == 50
    assert any("no reranker is configured" in note for note in answer["notes"])
    assert answer["weights_applied"]["reranker"] == 0.0


def test_unknown_weights_and_bad_diversity_are_noted(mcp, client):
    answer = mcp.ok("search_documents", {"query": "vector query", "diversity_factor": "lots",
                                         "weights": {"semantic": 0.5}})  # fmt: skip
    assert any("unknown weights ignored: semantic" in note for note in answer["notes"])
    assert any(note.startswith("diversity_factor=") for note in answer["notes"])
    expected = rest(client, "/api/rag/search", {"query": "vector query", "k": 5})
    assert_same_ranking(answer["rows"], expected["rows"])


def test_diversity_factor_reaches_the_search(mcp, client):
    answer = mcp.ok("search_documents", {"query": "config", "top_k": 10, "diversity_factor": 0.7})
    expected = rest(client, "/api/rag/search",
                    {"query": "config", "k": 10, "diversity_factor": 0.7})  # fmt: skip
    assert_same_ranking(answer["rows"], expected["rows"])


def test_weight_profiles_mirror_rest(mcp, client):
    assert mcp.ok("get_weight_profiles", {}) == client.get("/api/rag/profiles").json()
    one = mcp.ok("get_weight_profiles", {"name": "code_search"})
    assert one == client.get("/api/rag/profiles/code_search").json()
    result = mcp.call("get_weight_profiles", {"name": "nope"})
    assert result.is_error and "nope" in result.content[0].text


def test_single_space_search_mirrors_rest(mcp, client, corpus):
    body = {"query_embedding": corpus["query"], "top_k": 6, "min_similarity": 0.0}
    answer = mcp.ok("search_single_space", {"space": "default", **body})
    expected = rest(client, "/api/rag/search/space/default", body)
    assert answer["results"] == expected["results"]
    body = {"space": "default", "query_embedding": corpus["query"], "top_k": 99}
    clamped = mcp.ok("search_single_space", body)
    assert len(clamped["results"]) == 50 and clamped["notes"]


def test_single_space_search_of_each_kind_mirrors_rest(mcp, client):
    for name, body in {"mcp_terms": {"kind": "sparse", "dims": 20},
                       "mcp_tokens": {"kind": "multivector", "dims": 3}}.items():  # fmt: skip
        assert client.post("/api/rag/spaces", json={"name": name, **body}).status_code == 201
    chunks = [
        {
            "chunk_id": f"mcp-kind-{n}",
            "chunk": f"kinds {n}",
            "embeddings": {
                "mcp_terms": {"indices": [n, 19], "values": [1.0, 0.1 * (n + 1)]},
                "mcp_tokens": [[1.0, float(n), 0.0], [0.0, 1.0, float(n)]],
            },
        }
        for n in range(6)
    ]
    doc = {"doc_id": "mcp-kinds", "chunks": chunks}
    assert client.post("/api/rag/documents", json=doc).status_code == 200
    for space, query in [("mcp_terms", {"indices": [2, 19], "values": [1.0, 1.0]}),
                         ("mcp_tokens", [[1.0, 2.0, 0.0]])]:  # fmt: skip
        body = {"query_embedding": query, "top_k": 3}
        answer = mcp.ok("search_single_space", {"space": space, **body})
        expected = rest(client, f"/api/rag/search/space/{space}", body)
        assert answer["results"] == expected["results"] and len(answer["results"]) == 3
    assert answer["results"][0]["chunk_id"] == "mcp-kind-2"  # its first token is the query


@pytest.fixture(scope="module")
def other_collection(client) -> str:
    """A second collection whose chunks share words and ids with the default one's."""
    client.delete("/api/rag/collections/mcp-other")
    assert client.post("/api/rag/collections", json={"name": "mcp-other"}).status_code == 201
    rng = np.random.default_rng(16)
    for d in range(5):
        chunks = [{"chunk_id": f"mcp-{d}-{c}", "chunk": "other " + " ".join(rng.choice(WORDS, 6)),
                   "embedding": _vector(rng), "created_at": "2025-01-01T00:00:00Z"}
                  for c in range(3)]  # fmt: skip
        doc = {"collection": "mcp-other", "doc_id": f"mcp-doc-{d}", "chunks": chunks}
        assert client.post("/api/rag/documents", json=doc).status_code == 200
    return "mcp-other"


def test_tools_search_the_collection_they_are_given(mcp, client, corpus, other_collection):
    calls = [
        ("db.rag_search", "/api/rag/search", {"embedding": corpus["query"], "k": 9},
         {"embedding": corpus["query"], "k": 9, "w_rec": 0.1, "w_sig": 0.1}),
        ("search_documents", "/api/rag/search", {"query": "parser cache", "top_k": 9},
         {"query": "parser cache", "k": 9}),
    ]  # fmt: skip
    for tool, path, arguments, body in calls:
        for collection, marker in ((other_collection, True), (None, False)):
            named = {"collection": collection} if collection else {}
            answer = mcp.ok(tool, {**arguments, **named})
            assert_same_ranking(answer["rows"], rest(client, path, {**body, **named})["rows"])
            assert answer["rows"]
            assert all(row["chunk"].startswith("other ") is marker for row in answer["rows"])
    body = {"space": "default", "query_embedding": corpus["query"], "top_k": 20}
    answer = mcp.ok("search_single_space", {**body, "collection": other_collection})
    assert len(answer["results"]) == 15
    result = mcp.call("db.rag_search", {"embedding": corpus["query"], "collection": "nope"})
    assert result.is_error and "no collection named 'nope'" in result.content[0].text


class _Reranker(BaseHTTPRequestHandler):
    """A /rerank endpoint (Cohere-style answer) scoring by the share of query words."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        words = set(body["query"].split())
        results = [{"index": i, "relevance_score": len(words & set(doc.split())) / len(words)}
                   for i, doc in enumerate(body["documents"])]  # fmt: skip
        payload = json.dumps({"results": results}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def reranked_mcp(db_url: str, corpus) -> Iterator[McpSession]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Reranker)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/rerank"
    session = McpSession(_env(db_url, RAG_RERANKER_URL=url, RAG_RERANKER_WEIGHT="0.6"))
    yield session
    session.close()
    server.shutdown()


def test_reranker_stage_blends_initial_and_reranker_scores(reranked_mcp, client):
    query = "parser cache latency"
    answer = reranked_mcp.ok("search_documents", {"query": query, "top_k": 5})
    assert answer["reranker"] == {"configured": True, "used": True}
    assert answer["weights_applied"]["initial"] == pytest.approx(0.4)
    assert answer["weights_applied"]["reranker"] == pytest.approx(0.6)
    first_stage = rest(client, "/api/rag/search", {"query": query, "k": 50})["rows"]
    words = set(query.split())
    expected = sorted(
        ((0.4 * row["score"] + 0.6 * len(words & set(row["chunk"].split())) / 3, row["chunk_id"])
         for row in first_stage), key=lambda item: (-item[0], item[1]),
    )[:5]  # fmt: skip
    got = [(row["final_score"], row["chunk_id"]) for row in answer["rows"]]
    assert [c for _, c in got] == [c for _, c in expected]
    assert [s for s, _ in got] == pytest.approx([s for s, _ in expected])


def test_reranker_weights_given_are_normalised(reranked_mcp):
    weights = {"initial": 0.2, "reranker": 0.2}
    body = {"query": "socket", "top_k": 3, "weights": weights}
    answer = reranked_mcp.ok("search_documents", body)
    assert answer["weights_applied"]["initial"] == pytest.approx(0.5)
    assert answer["weights_applied"]["reranker"] == pytest.approx(0.5)
