"""The OpenAPI page documents every endpoint, and its request examples work as given."""

from __future__ import annotations

import httpx

EXPECTED_PATHS = {
    "/api/rag/search", "/api/rag/documents", "/api/rag/documents/{doc_id}", "/api/rag/spaces",
    "/api/rag/spaces/{name}", "/api/rag/stats", "/api/rag/signals", "/api/rag/examples",
    "/api/rag/search/space/{space}", "/api/rag/search/purpose", "/api/rag/explain",
    "/api/rag/profiles", "/api/rag/profiles/{name}", "/api/rag/profiles/{name}/versions",
    "/api/rag/goals", "/api/rag/goals/{name}", "/healthz", "/readyz",
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


def test_request_examples_work_as_given(service, client):
    schema = httpx.get(service.base_url + "/openapi.json").json()

    def example(method: str, path: str) -> dict:
        return schema["paths"][path][method]["requestBody"]["content"]["application/json"][
            "example"
        ]

    stored = client.post("/api/rag/documents", json=example("post", "/api/rag/documents"))
    assert stored.status_code == 200, stored.text
    assert (
        client.post("/api/rag/signals", json=example("post", "/api/rag/signals")).status_code == 200
    )
    found = client.post("/api/rag/search", json=example("post", "/api/rag/search"))
    assert found.status_code == 200
    assert "doc-123-chunk-0" in [row["chunk_id"] for row in found.json()["rows"]]
    nearest = client.post(
        "/api/rag/search/space/default", json=example("post", "/api/rag/search/space/{space}")
    )
    assert nearest.status_code == 200 and nearest.json()["results"]
    space = client.post("/api/rag/spaces", json=example("post", "/api/rag/spaces"))
    assert space.status_code in (201, 409)
