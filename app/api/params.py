"""Path and query parameters, validated where FastAPI reads them (a bad one is a 400 that
names it, like a bad body field)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from fastapi import Path, Query, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from app.errors import BadRequest
from app.validation import COLLECTION_PATTERN, ID_MAX_LENGTH, NAME_PATTERN

# No C0 control characters, no surrounding whitespace: what the ingest accepted as an id.
# New ids also refuse C1 controls (app/validation.py); a path still reaches an older id
# that holds one, to read or delete it.
ID_PATTERN = r"^[^\x00-\x1f\x7f\s](?:[^\x00-\x1f\x7f]*[^\x00-\x1f\x7f\s])?$"

DocId = Annotated[
    str,
    Path(min_length=1, max_length=ID_MAX_LENGTH, pattern=ID_PATTERN,
         description="The document's doc_id (any characters but control characters, '/' "
         "included; percent-encode '?', '#' and '%')."),
]  # fmt: skip
NamePath = Annotated[
    str, Path(pattern=NAME_PATTERN, description="Lower-case letters, digits and _ (max 63).")
]
CollectionPath = Annotated[
    str, Path(pattern=COLLECTION_PATTERN, description="A collection's name.")
]
CollectionQuery = Annotated[
    str, Query(pattern=COLLECTION_PATTERN, description="The collection (default: default).")
]

AsyncQuery = Annotated[
    bool,
    Query(alias="async", description="Run as a job (202 with Location) whatever the size."),
]

# What a bad parameter's 400 says, by parameter name.
PARAMETER_RULES = {
    "doc_id": f"doc_id must be 1..{ID_MAX_LENGTH} characters without control characters or "
    "surrounding whitespace",
    "name": "name must match ^[a-z][a-z0-9_]{0,62}$ (lower-case letters, digits, _)",
    "space": "space must match ^[a-z][a-z0-9_]{0,62}$ (lower-case letters, digits, _)",
    "collection": "collection must match ^[a-z0-9][a-z0-9_-]{0,62}$",
    "version": "version must be an integer >= 1",
    "include_embeddings": "include_embeddings must be true or false",
    "async": "async must be true or false",
}


def parameter_rule(name: str, pattern: str | None) -> str | None:
    """What a bad parameter's 400 says: by its name, or for a collection's name (the
    collections' routes call it ``name``) by its pattern."""
    if pattern == COLLECTION_PATTERN:
        return PARAMETER_RULES["collection"].replace("collection", name, 1)
    return PARAMETER_RULES.get(name)


NAME_SHOWN = 100  # characters of an unknown parameter's name said back


def _declared(dependant: Dependant) -> set[str]:
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _declared(sub)
    return names


def unknown_name(kind: str, name: str, known: Iterable[str], hint: str = "") -> BadRequest:
    """A 400 for a name the request gave and nothing reads, said back cut, with the names
    that are read."""
    shown = name if len(name) <= NAME_SHOWN else name[:NAME_SHOWN] + "…"
    listed = ", ".join(known) or "none"
    return BadRequest(f"unknown {kind} {shown!r} (known: {listed}){hint}", field=shown)


def refuse_unknown_query(request: Request) -> None:
    """A query parameter an /api route does not read is refused by name, as an unknown
    body field is: a mistyped ``?colection=`` would otherwise store into the default
    collection without a word. Checked once the caller's key is (app/api/deps.py): a
    caller without one learns nothing of the route."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.path.startswith("/api/"):
        return
    declared = _declared(route.dependant)
    unknown = sorted(set(request.query_params) - declared)
    if unknown:
        raise unknown_name("query parameter", unknown[0], sorted(declared))
