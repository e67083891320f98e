"""A query parameter a route does not read, or a form field an upload does not read, is
refused by name before anything is stored (before, both were ignored: a mistyped
``?colection=acme`` or a ``collection`` form field stored the files in the default
collection without a word)."""

from __future__ import annotations

import json
import os
import re

import httpx
import pytest

from conftest import READ_KEY

# Against RAG_TEST_BASE_URL, that service must hold this key, writing to "acme" only.
SCOPED_KEY = os.environ.get("RAG_TEST_SCOPED_WRITE_KEY", "acme-writer")
SERVICE_ENV = {
    "RAG_COLLECTION_KEYS": json.dumps({SCOPED_KEY: {"collections": ["acme"], "write": True}})
}

FILE = {"files": ("glider-notes.txt", b"Gliders ride thermals.", "text/plain")}


def _not_stored(client: httpx.Client, doc_id: str) -> bool:
    return client.get(f"/api/rag/documents/{doc_id}").status_code == 404


def test_a_mistyped_query_parameter_of_an_upload_is_refused(client, run_id):
    name = f"{run_id}-notes.txt"
    r = client.post("/api/rag/documents/upload", params={"colection": "acme"},
                    files={"files": (name, b"Gliders ride thermals.", "text/plain")})  # fmt: skip
    assert r.status_code == 400, r.text
    assert r.json() == {
        "error": "unknown query parameter 'colection' (known: async, collection)",
        "field": "colection",
    }
    assert _not_stored(client, name)


def test_a_collection_form_field_is_refused_with_where_it_goes(client, run_id):
    name = f"{run_id}-notes.txt"
    r = client.post("/api/rag/documents/upload", data={"collection": "acme"},
                    files={"files": (name, b"Gliders ride thermals.", "text/plain")})  # fmt: skip
    assert r.status_code == 400, r.text
    assert r.json()["field"] == "collection"
    assert "give the collection as ?collection=" in r.json()["error"]
    assert _not_stored(client, name)


def test_an_unknown_form_field_is_refused_by_name(client):
    r = client.post("/api/rag/documents/upload", data={"bogus": "1"}, files=FILE)
    assert r.status_code == 400, r.text
    assert r.json() == {"error": "unknown form field 'bogus' (known: files, options)",
                        "field": "bogus"}  # fmt: skip


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [("get", "/api/rag/documents/some-doc?colection=acme", None),
     ("post", "/api/rag/search?k=3", {"embedding": [0.1] * 384}),
     ("get", "/api/rag/collections?bogus=1", None)],
)  # fmt: skip
def test_a_query_parameter_no_route_reads_is_refused(client, method, url, body):
    r = client.request(method.upper(), url, json=body)
    assert r.status_code == 400, r.text
    unknown = url.split("?")[1].split("=")[0]
    assert r.json()["field"] == unknown
    assert f"unknown query parameter {unknown!r}" in r.json()["error"]


def _operations(client: httpx.Client) -> list[tuple[str, str]]:
    """Every /api operation the service describes, its path's parameters filled in with
    names nothing holds."""
    paths = client.get("/openapi.json").json()["paths"]
    return [(method, re.sub(r"\{[a-z_]+\}", "no_such_thing", path))
            for path, operations in paths.items() if path.startswith("/api/")
            for method in operations]  # fmt: skip


def test_every_api_route_refuses_a_parameter_it_does_not_read(client):
    operations = _operations(client)
    assert len(operations) >= 30
    for method, path in operations:
        r = client.request(method.upper(), path, params={"bogus": "1"})
        assert r.status_code == 400, (method, path, r.text)
        assert r.json()["field"] == "bogus", (method, path)


def test_every_api_route_says_it_may_answer_400(client):
    paths = client.get("/openapi.json").json()["paths"]
    silent = [(method, path) for path, operations in paths.items() if path.startswith("/api/")
              for method, operation in operations.items()
              if "400" not in operation["responses"]]  # fmt: skip
    assert silent == []


def test_the_key_is_checked_before_the_parameters(service):
    bogus = {"bogus": "1"}
    with httpx.Client(base_url=service.base_url, timeout=30) as anonymous:
        assert anonymous.get("/api/rag/collections", params=bogus).status_code == 401
    with httpx.Client(base_url=service.base_url, timeout=30,
                      headers={"Authorization": f"Bearer {READ_KEY}"}) as reader:  # fmt: skip
        r = reader.delete("/api/rag/documents/some-doc", params=bogus)
        assert r.status_code == 403, r.text  # a read key may not delete: said first
        r = reader.delete("/api/rag/goals/some_goal", params=bogus)
        assert r.status_code == 403, r.text
    with httpx.Client(base_url=service.base_url, timeout=30,
                      headers={"Authorization": f"Bearer {SCOPED_KEY}"}) as scoped:  # fmt: skip
        r = scoped.delete("/api/rag/goals/some_goal", params=bogus)
        assert r.status_code == 403, r.text  # goals are every collection's: said first


def test_routes_outside_the_api_take_any_parameter(client):
    assert client.get("/healthz", params={"probe": "1"}).status_code == 200
    assert client.get("/metrics", params={"name[]": "x"}).status_code == 200


def test_a_long_unknown_name_is_said_back_cut(client):
    r = client.get("/api/rag/collections", params={"x" * 60_000: "1"})
    assert r.status_code == 400
    assert r.json()["field"] == "x" * 100 + "…"
    assert len(r.text) < 1_000


def test_a_long_unknown_form_field_is_said_back_cut(client):
    r = client.post("/api/rag/documents/upload", data={"f" * 300: "1"}, files=FILE)
    assert r.status_code == 400
    assert r.json()["field"] == "f" * 100 + "…"
    assert len(r.text) < 1_000


def test_the_parameters_a_route_reads_still_work(client):
    r = client.get("/api/rag/collections")
    assert r.status_code == 200
    r = client.get("/api/rag/documents/no-such-doc",
                   params={"collection": "default", "include_embeddings": "true"})  # fmt: skip
    assert r.status_code == 404
    r = client.get("/api/rag/jobs", params={"collection": "default", "status": "done",
                                            "limit": "5"})  # fmt: skip
    assert r.status_code == 200, r.text
    assert client.get("/api/rag/stats", params={"collection": "default"}).status_code == 200
    r = client.get("/api/rag/profiles/no_such_thing", params={"version": "2"})
    assert r.status_code == 404
    r = client.get("/api/rag/goals/no_such_thing", params={"include_embeddings": "true"})
    assert r.status_code == 404
