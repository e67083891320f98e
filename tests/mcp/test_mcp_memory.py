"""Agents can remember: the MCP tools ``remember`` (a text stored as a document, split and
indexed by the service) and ``forget`` (a document deleted by id), validated as REST
validates, and acting with RAG_MCP_KEY under the rules of REST keys."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from mcp_session import McpSession


def _env(db_url: str, **extra: str) -> dict[str, str]:
    return {"DATABASE_URL": db_url, "RAG_EMBEDDER": "none", "RAG_LOG_LEVEL": "warning", **extra}


@pytest.fixture(scope="module")
def mcp(db_url: str) -> Iterator[McpSession]:
    session = McpSession(_env(db_url))
    yield session
    session.close()


def _error(result) -> dict:
    assert result.is_error, result.structured_content
    text = result.content[0].text
    return json.loads(text[text.index("{") :])


def test_a_remembered_text_is_found_then_forgotten(mcp, client, run_id):
    stored = mcp.ok("remember", {"text": f"The {run_id} deploy key rotates every ninety days.",
                                 "title": "Ops notes", "tags": ["ops"],
                                 "metadata": {"team": "infra"}})  # fmt: skip
    doc_id = stored["doc_id"]
    assert doc_id.startswith("memory-") and stored["chunks"] == 1
    rest = client.get(f"/api/rag/documents/{doc_id}").json()
    assert rest["title"] == "Ops notes" and rest["tags"] == ["ops"]
    assert rest["metadata"] == {"team": "infra"}
    found = mcp.ok("search_documents", {"query": f"{run_id} deploy key"})
    assert found["rows"][0]["doc_id"] == doc_id
    again = mcp.ok("remember", {"text": "Replaced text.", "doc_id": doc_id})
    assert again["doc_id"] == doc_id
    assert (
        client.get(f"/api/rag/documents/{doc_id}").json()["chunks"][0]["chunk"] == "Replaced text."
    )
    assert mcp.ok("forget", {"doc_id": doc_id})["deleted_chunks"] == 1
    assert client.get(f"/api/rag/documents/{doc_id}").status_code == 404
    assert _error(mcp.call("forget", {"doc_id": doc_id}))["error"].startswith("no document")


@pytest.mark.parametrize(
    ("arguments", "words"),
    [({"text": "  "}, "text must not be empty"),
     ({"text": "x", "collection": "no-such-collection"}, "no collection named"),
     ({"text": "x", "metadata": {"n": "\u0000"}}, "metadata"),
     ({"text": "x", "doc_id": " padded "}, "doc_id")],
    ids=["empty", "unknown collection", "bad metadata", "bad id"],
)  # fmt: skip
def test_remember_validates_as_rest_does(mcp, arguments, words):
    assert words in _error(mcp.call("remember", arguments))["error"]


def test_the_write_tools_act_with_the_mcp_key(db_url, client, run_id):
    team = f"{run_id}-team"
    assert client.post("/api/rag/collections", json={"name": team}).status_code == 201
    keys = {"RAG_API_KEYS": "admin-key", "RAG_MCP_KEY": "scoped-key",
            "RAG_COLLECTION_KEYS": json.dumps({"scoped-key": {"collections": [team],
                                                              "write": True}})}  # fmt: skip
    session = McpSession(_env(db_url, **keys))
    try:
        assert session.ok("remember", {"text": "team memory", "collection": team})["chunks"] == 1
        refused = _error(session.call("remember", {"text": "elsewhere"}))
        assert "may not use collection 'default'" in refused["error"]
    finally:
        session.close()
    unkeyed = McpSession(_env(db_url, RAG_API_KEYS="admin-key"))
    try:
        refused = _error(unkeyed.call("remember", {"text": "x"}))
        assert refused["error"] == "Unauthorized"  # REST's body, and what to do about it
        assert refused["hint"] == ("the service has API keys and RAG_MCP_KEY is not set: set "
                                   "it to a key that may write collection 'default'")  # fmt: skip
    finally:
        unkeyed.close()
    wrong = McpSession(_env(db_url, RAG_API_KEYS="admin-key", RAG_MCP_KEY="not-a-key"))
    try:
        refused = _error(wrong.call("forget", {"doc_id": "d", "collection": team}))
        assert refused["hint"].startswith("the service has API keys and RAG_MCP_KEY is not one")
        assert "not-a-key" not in json.dumps(refused)  # the key is never said back
    finally:
        wrong.close()


def test_the_search_tools_read_only_what_the_mcp_key_may(db_url, client, run_id):
    # they searched any collection whatever RAG_MCP_KEY was held to (a tenant read another's)
    team, other = f"{run_id}-mine", f"{run_id}-theirs"
    for name in (team, other):
        assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
    stored = {"doc_id": "payroll", "collection": other,
              "chunks": [{"chunk": "the payroll password", "embedding": [0.1] * 384}]}  # fmt: skip
    assert client.post("/api/rag/documents", json=stored).status_code == 200
    keys = {"RAG_API_KEYS": "admin-key", "RAG_MCP_KEY": "scoped-key",
            "RAG_COLLECTION_KEYS": json.dumps({"scoped-key": {"collections": [team]}})}  # fmt: skip
    session = McpSession(_env(db_url, **keys))
    try:
        vector = [0.1] * 384
        calls = [("search_documents", {"query": "payroll password"}, "rows"),
                 ("db.rag_search", {"embedding": vector}, "rows"),
                 ("search_single_space", {"space": "default", "query_embedding": vector},
                  "results")]  # fmt: skip
        for tool, arguments, found in calls:
            refused = _error(session.call(tool, {**arguments, "collection": other}))
            assert refused["error"].startswith(f"this key may not use collection '{other}'"), tool
            assert (
                "may not use collection 'default'" in _error(session.call(tool, arguments))["error"]
            )
            assert session.ok(tool, {**arguments, "collection": team})[found] == [], tool
        assert session.ok("get_weight_profiles", {})["profiles"]
    finally:
        session.close()
    unkeyed = McpSession(_env(db_url, RAG_API_KEYS="admin-key"))
    try:
        refused = _error(
            unkeyed.call("search_documents", {"query": "payroll", "collection": other})
        )
        assert refused["hint"] == ("the service has API keys and RAG_MCP_KEY is not set: set it "
                                   f"to a key that may read collection '{other}'")  # fmt: skip
        assert _error(unkeyed.call("get_weight_profiles", {}))["error"] == "Unauthorized"
    finally:
        unkeyed.close()
