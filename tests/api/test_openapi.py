"""The OpenAPI page documents every endpoint, and its request examples work as given."""

from __future__ import annotations

import httpx

from conftest import WRITE_KEY

EXPECTED_PATHS = {
    "/api/rag/search", "/api/rag/documents", "/api/rag/documents/{doc_id}", "/api/rag/spaces",
    "/api/rag/spaces/{name}", "/api/rag/stats", "/api/rag/signals", "/api/rag/examples",
    "/api/rag/search/space/{space}", "/api/rag/search/purpose", "/api/rag/explain",
    "/api/rag/search/defaults", "/api/rag/facets",
    "/api/rag/profiles", "/api/rag/profiles/{name}", "/api/rag/profiles/{name}/versions",
    "/api/rag/goals", "/api/rag/goals/{name}", "/api/rag/collections",
    "/api/rag/collections/{name}", "/healthz", "/readyz", "/metrics",
    "/api/rag/documents/upload", "/api/rag/jobs", "/api/rag/jobs/{job_id}",
    "/api/rag/jobs/{job_id}/cancel", "/api/rag/spaces/{name}/reembed",
}  # fmt: skip


def test_every_endpoint_is_documented(service):
    schema = httpx.get(service.base_url + "/openapi.json").json()
    assert set(schema["paths"]) == EXPECTED_PATHS
    search = schema["paths"]["/api/rag/search"]["post"]
    assert search["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SearchRequest"
    }
    assert "embedding" in schema["components"]["schemas"]["SearchRequest"]["properties"]
    assert httpx.get(service.base_url + "/docs").status_code == 200


def test_request_examples_work_as_given(demo_service):
    """Every prefilled example of /docs answers 2xx, as given, against the demo corpus."""
    base = demo_service.base_url
    schema = httpx.get(base + "/openapi.json").json()
    headers = {"Authorization": f"Bearer {WRITE_KEY}"}
    client = httpx.Client(base_url=base, headers=headers, timeout=60)

    def example(method: str, path: str, name: str | None = None) -> dict:
        content = schema["paths"][path][method]["requestBody"]["content"]["application/json"]
        return content["examples"][name]["value"] if name else content["example"]

    def call(method: str, path: str, url: str | None = None, name: str | None = None):
        response = client.request(method, url or path, json=example(method, path, name))
        assert response.status_code in (200, 201), (path, name, response.text)
        return response.json()

    stored = call("post", "/api/rag/documents")
    assert stored["chunks"] == 1
    assert call("post", "/api/rag/signals")["updated"] == 1
    weighted = call("post", "/api/rag/search", name="weighted")
    assert weighted["rows"]
    explained = call("post", "/api/rag/search", name="explained")
    assert explained["query_metadata"]["profile_used"]["name"] == "balanced"
    assert all("components" in row for row in explained["rows"])
    hybrid = call("post", "/api/rag/search", name="hybrid")
    assert hybrid["classification"]["class"] == "lookup"
    filtered = call("post", "/api/rag/search", name="filtered")
    assert filtered["rows"] and filtered["query_metadata"]["fusion"] == "rrf"
    assert call("post", "/api/rag/explain")["stage"] in ("included", "outscored", "max_per_source")
    counted = call("post", "/api/rag/facets")
    assert counted["counted"] == "keyword_matches"
    assert counted["facets"]["metadata.license"]["values"]
    assert call("post", "/api/rag/search/space/{space}", "/api/rag/search/space/default")["results"]
    assert call("post", "/api/rag/search/purpose")["results"]
    put = example("put", "/api/rag/profiles/{name}")
    profile = call("put", "/api/rag/profiles/{name}", "/api/rag/profiles/openapi_example")
    assert profile["profile"]["w_rec"] == put["w_rec"]
    assert call("put", "/api/rag/goals/{name}", "/api/rag/goals/openapi_example")["spaces"]
    assert call("post", "/api/rag/collections")["collection"]["name"] == "team-docs"
    assert call("post", "/api/rag/spaces")["space"]["name"] == "code"
    reembed = example("post", "/api/rag/spaces/{name}/reembed")
    queued = client.post("/api/rag/spaces/code/reembed", json=reembed)
    assert queued.status_code == 202, queued.text
    assert queued.json()["job"]["kind"] == "reembed"
    paths_with_bodies = {
        (method, path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    }  # (an upload's body is multipart: tests/jobs sends files)
    examples = {
        (method, path)
        for method, path in paths_with_bodies
        if {"example", "examples"}
        & set(schema["paths"][path][method]["requestBody"]["content"]["application/json"])
    }
    assert examples == paths_with_bodies  # every body has an example, and each was run above


def test_the_consistency_header_is_documented_on_reads(service):
    schema = httpx.get(service.base_url + "/openapi.json").json()
    parameters = schema["paths"]["/api/rag/search"]["post"].get("parameters", [])
    header = next(p for p in parameters if p["name"] == "X-Consistency")
    assert header["in"] == "header" and "primary" in header["description"]
    writes = schema["paths"]["/api/rag/documents"]["post"].get("parameters", [])
    assert all(p["name"] != "X-Consistency" for p in writes)
