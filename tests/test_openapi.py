"""The OpenAPI page documents every endpoint, and its request examples work as given."""

from __future__ import annotations

import httpx

EXPECTED_PATHS = {
    "/api/rag/search", "/api/rag/documents", "/api/rag/documents/{doc_id}", "/api/rag/spaces",
    "/api/rag/spaces/{name}", "/api/rag/stats", "/api/rag/signals", "/api/rag/examples",
    "/api/rag/search/space/{space}", "/api/rag/search/purpose", "/api/rag/explain",
    "/api/rag/profiles", "/api/rag/profiles/{name}", "/api/rag/profiles/{name}/versions",
    "/api/rag/goals", "/api/rag/goals/{name}", "/api/rag/collections",
    "/api/rag/collections/{name}", "/healthz", "/readyz",
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

    def example(method: str, path: str, name: str | None = None) -> dict:
        content = schema["paths"][path][method]["requestBody"]["content"]["application/json"]
        return content["examples"][name]["value"] if name else content["example"]

    stored = client.post("/api/rag/documents", json=example("post", "/api/rag/documents"))
    assert stored.status_code == 200, stored.text
    assert (
        client.post("/api/rag/signals", json=example("post", "/api/rag/signals")).status_code == 200
    )
    found = client.post("/api/rag/search", json=example("post", "/api/rag/search", "weighted"))
    assert found.status_code == 200
    assert "doc-123-chunk-0" in [row["chunk_id"] for row in found.json()["rows"]]
    explained = client.post("/api/rag/search", json=example("post", "/api/rag/search", "explained"))
    assert explained.status_code == 200, explained.text
    assert explained.json()["query_metadata"]["profile_used"]["name"] == "balanced"
    assert all("components" in row for row in explained.json()["rows"])
    hybrid = client.post("/api/rag/search", json=example("post", "/api/rag/search", "hybrid"))
    assert hybrid.status_code == 200 and hybrid.json()["classification"]["class"] == "lookup"
    put = example("put", "/api/rag/profiles/{name}")
    profile = client.put("/api/rag/profiles/openapi_example", json=put)
    assert profile.status_code == 200 and profile.json()["profile"]["w_rec"] == put["w_rec"]
    assert client.get("/api/rag/profiles/openapi_example").json()["profile"]["version"] == 1
    nearest = client.post(
        "/api/rag/search/space/default", json=example("post", "/api/rag/search/space/{space}")
    )
    assert nearest.status_code == 200 and nearest.json()["results"]
    space = client.post("/api/rag/spaces", json=example("post", "/api/rag/spaces"))
    assert space.status_code in (201, 409)
