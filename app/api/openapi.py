"""OpenAPI for routes that read their body themselves (for speed and exact errors).

Such a route declares its body with ``json_body(Model)``; ``install_openapi`` adds the
models' JSON schemas to the document's components so /docs shows and validates them.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

REF = "#/components/schemas/{model}"


class NamedExamples(dict[str, Any]):
    """Several request examples for one endpoint: {name: (summary, body)}."""


def json_body(model: type[BaseModel]) -> dict[str, Any]:
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


def install_openapi(
    app: FastAPI,
    models: list[type[BaseModel]],
    examples: dict[tuple[str, str], Any] | None = None,
) -> None:
    """Add ``models`` to the components, and a request example per (method, path)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in models:
                model_schema = model.model_json_schema(ref_template=REF)
                components.update(model_schema.pop("$defs", {}))
                components[model.__name__] = model_schema
            for (method, path), example in (examples or {}).items():
                content = schema["paths"][path][method]["requestBody"]["content"]
                content["application/json"].update(_example_fields(example))
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
