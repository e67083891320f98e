"""A query parameter a route does not read, or a form field an upload does not read, is
refused by name before anything is stored (before, both were ignored: a mistyped
``?colection=acme`` or a ``collection`` form field stored the files in the default
collection without a word)."""

from __future__ import annotations

import httpx
import pytest

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


def test_the_parameters_a_route_reads_still_work(client):
    r = client.get("/api/rag/collections")
    assert r.status_code == 200
    r = client.get("/api/rag/documents/no-such-doc", params={"collection": "default"})
    assert r.status_code == 404
