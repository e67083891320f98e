"""The OpenAPI document as the contract: request bodies of routes that read their body
themselves (``json_body``), every error status a route sends (``errors``), the bearer
security scheme, request examples that work against the demo corpus; FastAPI's 422
(never sent: bad requests get 400) removed."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from app.api.schemas import ErrorBody

REF = "#/components/schemas/{model}"

STATUS_TEXT = {
    400: "A field breaks a rule: the message names the field and the rule.",
    401: 'Missing or unknown bearer token: {"error": "Unauthorized"}.',
    403: "The key may not do this (a read key writing, a collection outside a key's scope), "
    "or, with no keys configured, a request from another host or origin.",
    404: "The named collection, document, chunk, space, profile or goal does not exist.",
    409: "The request clashes with stored data (a taken name or chunk_id).",
    413: "The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, "
    "RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and "
    "RAG_MAX_FILE_BYTES for each of its files.",
    415: "The body is not declared as JSON (Content-Type: application/json; an upload: "
    "multipart/form-data), or a text or file is of a type the service does not read (the "
    "message names the accepted types).",
    429: "The key or the collection has as many requests on the database as it may "
    "(RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds.",
    502: "A space's embedder answered what cannot be used (an error, vectors of the wrong "
    "dimensions, NaN); nothing was stored.",
    503: "The database is unavailable (restarting, reconnecting) or every connection is "
    "busy, or a space's embedder is down or slow (nothing was stored); retry after "
    "Retry-After seconds.",
    504: "A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database "
    "did not answer within RAG_REQUEST_TIMEOUT (request_timeout).",
}
BAD_HEADER = {
    "description": "A header breaks a rule (the message names it).",
    "content": {"application/json": {"schema": {"$ref": REF.format(model="ErrorBody")}}},
}
BAD_PARAMETER = {  # every /api route: a query parameter it does not read is refused
    "description": "A header or query parameter breaks a rule, or a query parameter is "
    "not one the route reads (the message names it).",
    "content": BAD_HEADER["content"],
}
ACCESS = (401, 403, 429, 503, 504)  # every /api route: keys, and the database behind it
BODY = (400, 413, 415)  # routes that read a JSON body


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may answer with these error statuses."""
    return {
        code: {"model": ErrorBody, "description": STATUS_TEXT[code]} for code in sorted(set(codes))
    }


class NamedExamples(dict[str, Any]):
    """Several request examples for one endpoint: {name: (summary, body)}."""


# The models of the bodies routes read themselves, by name: each is added to the
# document's components (json_body names it).
BODY_MODELS: dict[str, type[BaseModel]] = {}


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of a route that reads ``model`` from its JSON body."""
    BODY_MODELS[model.__name__] = model
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": REF.format(model=model.__name__)}}},
        }
    }


def _example_fields(example: Any) -> dict[str, Any]:
    if isinstance(example, NamedExamples):
        named = {name: {"summary": summary, "value": body}
                 for name, (summary, body) in example.items()}  # fmt: skip
        return {"examples": named}
    return {"example": example}


def _contract(schema: dict[str, Any]) -> None:
    """Bearer security on /api routes, and no 422 anywhere."""
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {})["bearerAuth"] = {
        "type": "http",
        "scheme": "bearer",
        "description": "A key from RAG_API_KEYS, RAG_READ_KEYS or RAG_COLLECTION_KEYS "
        "(none needed when the service runs with no keys, on 127.0.0.1).",
    }
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            operation.get("responses", {}).pop("422", None)
            if path.startswith("/api/"):
                operation["responses"].setdefault("400", BAD_PARAMETER)
            elif any(p.get("in") == "header" for p in operation.get("parameters", [])):
                operation["responses"].setdefault("400", BAD_HEADER)
            operation["security"] = [{"bearerAuth": []}] if path.startswith("/api/") else []
    for name in ("HTTPValidationError", "ValidationError"):
        components.get("schemas", {}).pop(name, None)


def install_openapi(app: FastAPI, examples: dict[tuple[str, str], Any] | None = None) -> None:
    """Add the body models (``json_body``) to the components, a request example per
    (method, path), and the contract's security and statuses."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in BODY_MODELS.values():
                model_schema = model.model_json_schema(ref_template=REF)
                components.update(model_schema.pop("$defs", {}))
                components[model.__name__] = model_schema
            for (method, path), example in (examples or {}).items():
                content = schema["paths"][path][method]["requestBody"]["content"]
                content["application/json"].update(_example_fields(example))
            _contract(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
