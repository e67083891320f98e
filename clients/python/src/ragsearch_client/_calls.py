"""Every endpoint as a function that builds its ``Call``: the sync and async clients run
the same calls. ROUTES lists what they cover (tests/test_coverage.py holds it equal to
the server's OpenAPI paths)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from ragsearch_client import models
from ragsearch_client._base import RequestModel
from ragsearch_client._http import Call, path_segment

R = TypeVar("R", bound=RequestModel)
API = "/api/rag"

ROUTES = frozenset(
    {
        ("POST", f"{API}/search"),
        ("GET", f"{API}/search/defaults"),
        ("POST", f"{API}/search/space/{{space}}"),
        ("POST", f"{API}/search/purpose"),
        ("POST", f"{API}/explain"),
        ("POST", f"{API}/facets"),
        ("POST", f"{API}/documents"),
        ("POST", f"{API}/documents/upload"),
        ("GET", f"{API}/jobs"),
        ("GET", f"{API}/jobs/{{job_id}}"),
        ("POST", f"{API}/jobs/{{job_id}}/cancel"),
        ("GET", f"{API}/documents/{{doc_id}}"),
        ("DELETE", f"{API}/documents/{{doc_id}}"),
        ("POST", f"{API}/collections"),
        ("GET", f"{API}/collections"),
        ("GET", f"{API}/collections/{{name}}"),
        ("DELETE", f"{API}/collections/{{name}}"),
        ("POST", f"{API}/spaces"),
        ("GET", f"{API}/spaces"),
        ("DELETE", f"{API}/spaces/{{name}}"),
        ("POST", f"{API}/spaces/{{name}}/reembed"),
        ("GET", f"{API}/stats"),
        ("POST", f"{API}/signals"),
        ("GET", f"{API}/profiles"),
        ("GET", f"{API}/profiles/{{name}}"),
        ("PUT", f"{API}/profiles/{{name}}"),
        ("DELETE", f"{API}/profiles/{{name}}"),
        ("GET", f"{API}/profiles/{{name}}/versions"),
        ("GET", f"{API}/goals"),
        ("GET", f"{API}/goals/{{name}}"),
        ("PUT", f"{API}/goals/{{name}}"),
        ("DELETE", f"{API}/goals/{{name}}"),
        ("GET", f"{API}/examples"),
        ("GET", "/healthz"),
        ("GET", "/readyz"),
        ("GET", "/metrics"),
    }
)


def request_of(
    model: type[R], given: R | Mapping[str, Any] | None, fields: Mapping[str, object]
) -> R:
    """The request model from a model, a mapping, keyword fields, or a model or mapping
    with fields overriding some of its values (validated here, before sending)."""
    if isinstance(given, model) and not fields:
        return given
    base = given.body() if isinstance(given, RequestModel) else dict(given or {})
    return model.model_validate({**base, **fields})


def search(request: models.SearchRequest) -> Call[models.SearchResponse]:
    return Call("POST", f"{API}/search", models.SearchResponse, json=request.body())


def explain(request: models.ExplainRequest) -> Call[models.ExplainResponse]:
    return Call("POST", f"{API}/explain", models.ExplainResponse, json=request.body())


def facets(request: models.FacetRequest) -> Call[models.FacetsResponse]:
    return Call("POST", f"{API}/facets", models.FacetsResponse, json=request.body())


def search_space(
    space: str, request: models.SpaceSearchRequest
) -> Call[models.SpaceSearchResponse]:
    path = f"{API}/search/space/{path_segment(space)}"
    return Call("POST", path, models.SpaceSearchResponse, json=request.body())


def search_purpose(request: models.PurposeSearchRequest) -> Call[models.PurposeSearchResponse]:
    return Call("POST", f"{API}/search/purpose", models.PurposeSearchResponse, json=request.body())


def put_document(
    document: models.DocumentIn, run_async: bool = False
) -> Call[models.IngestResponse | models.JobResponse]:
    params = {"async": "true"} if run_async else None
    return Call(
        "POST",
        f"{API}/documents",
        models.IngestResponse,
        json=document.body(),
        params=params,
        accepted=models.JobResponse,
    )


def upload(
    files: list[tuple[str, bytes]], collection: str, options: Mapping[str, Any] | None,
    run_async: bool,
) -> Call[models.UploadResponse | models.JobResponse]:  # fmt: skip
    params = {"collection": collection, **({"async": "true"} if run_async else {})}
    parts = [("files", (name, data)) for name, data in files]
    data = {"options": json.dumps(dict(options))} if options else None
    return Call(
        "POST",
        f"{API}/documents/upload",
        models.UploadResponse,
        params=params,
        files=parts,
        data=data,
        accepted=models.JobResponse,
    )


def reembed_space(name: str, request: models.ReembedIn) -> Call[models.JobResponse]:
    path = f"{API}/spaces/{path_segment(name)}/reembed"
    return Call("POST", path, models.JobResponse, json=request.body())


def get_job(job_id: int) -> Call[models.JobResponse]:
    return Call("GET", f"{API}/jobs/{int(job_id)}", models.JobResponse)


def list_jobs(collection: str | None, status: str | None, limit: int) -> Call[models.JobsResponse]:
    params: dict[str, Any] = {"limit": limit}
    params.update({k: v for k, v in (("collection", collection), ("status", status)) if v})
    return Call("GET", f"{API}/jobs", models.JobsResponse, params=params)


def cancel_job(job_id: int) -> Call[models.JobResponse]:
    return Call("POST", f"{API}/jobs/{int(job_id)}/cancel", models.JobResponse)


def get_document(
    doc_id: str, collection: str, include_embeddings: bool
) -> Call[models.DocumentResponse]:
    params = {"collection": collection, "include_embeddings": str(include_embeddings).lower()}
    path = f"{API}/documents/{path_segment(doc_id)}"
    return Call("GET", path, models.DocumentResponse, params=params)


def delete_document(doc_id: str, collection: str) -> Call[models.DeletedDocument]:
    path = f"{API}/documents/{path_segment(doc_id)}"
    return Call("DELETE", path, models.DeletedDocument, params={"collection": collection})


def create_collection(request: models.CollectionIn) -> Call[models.CollectionCreated]:
    return Call("POST", f"{API}/collections", models.CollectionCreated, json=request.body())


def list_collections() -> Call[models.CollectionsResponse]:
    return Call("GET", f"{API}/collections", models.CollectionsResponse)


def get_collection(name: str) -> Call[models.CollectionResponse]:
    return Call("GET", f"{API}/collections/{path_segment(name)}", models.CollectionResponse)


def delete_collection(name: str) -> Call[models.DeletedCollection]:
    return Call("DELETE", f"{API}/collections/{path_segment(name)}", models.DeletedCollection)


def register_space(request: models.SpaceIn) -> Call[models.SpaceCreated]:
    return Call("POST", f"{API}/spaces", models.SpaceCreated, json=request.body())


def list_spaces() -> Call[models.SpacesResponse]:
    return Call("GET", f"{API}/spaces", models.SpacesResponse)


def drop_space(name: str) -> Call[models.SpaceDropped]:
    return Call("DELETE", f"{API}/spaces/{path_segment(name)}", models.SpaceDropped)


def stats(collection: str) -> Call[models.StatsResponse]:
    return Call("GET", f"{API}/stats", models.StatsResponse, params={"collection": collection})


def update_signals(request: models.SignalsIn) -> Call[models.SignalsResponse]:
    return Call("POST", f"{API}/signals", models.SignalsResponse, json=request.body())


def list_profiles() -> Call[models.ProfilesResponse]:
    return Call("GET", f"{API}/profiles", models.ProfilesResponse)


def get_profile(name: str, version: int | None) -> Call[models.ProfileResponse]:
    params = None if version is None else {"version": version}
    path = f"{API}/profiles/{path_segment(name)}"
    return Call("GET", path, models.ProfileResponse, params=params)


def profile_versions(name: str) -> Call[models.ProfileVersions]:
    return Call("GET", f"{API}/profiles/{path_segment(name)}/versions", models.ProfileVersions)


def put_profile(name: str, request: models.ProfileIn) -> Call[models.ProfileResponse]:
    path = f"{API}/profiles/{path_segment(name)}"
    return Call("PUT", path, models.ProfileResponse, json=request.body())


def delete_profile(name: str) -> Call[models.Deleted]:
    return Call("DELETE", f"{API}/profiles/{path_segment(name)}", models.Deleted)


def list_goals() -> Call[models.GoalsResponse]:
    return Call("GET", f"{API}/goals", models.GoalsResponse)


def get_goal(name: str, include_embeddings: bool) -> Call[models.GoalResponse]:
    params = {"include_embeddings": str(include_embeddings).lower()}
    return Call("GET", f"{API}/goals/{path_segment(name)}", models.GoalResponse, params=params)


def put_goal(name: str, request: models.GoalIn) -> Call[models.GoalResponse]:
    path = f"{API}/goals/{path_segment(name)}"
    return Call("PUT", path, models.GoalResponse, json=request.body())


def delete_goal(name: str) -> Call[models.Deleted]:
    return Call("DELETE", f"{API}/goals/{path_segment(name)}", models.Deleted)


def search_defaults() -> Call[models.SearchDefaults]:
    return Call("GET", f"{API}/search/defaults", models.SearchDefaults)


def examples() -> Call[models.ExamplesResponse]:
    return Call("GET", f"{API}/examples", models.ExamplesResponse)


def health() -> Call[models.Health]:
    return Call("GET", "/healthz", models.Health)


def ready() -> Call[models.Readiness]:
    """503 is an answer here (not ready, with the reason), not an error to retry."""
    return Call("GET", "/readyz", models.Readiness, answers_with_body=frozenset({503}))


def metrics() -> Call[str]:
    return Call("GET", "/metrics", None)
