"""The fields a facet request may count, declared once: how the request names each, the
kind the SQL side counts (sql/functions/facets.sql, api.facet_sql), and the search
field a value of it goes into to narrow a search to it (what a click on it does).

    tags             each tag of the chunks (a value goes into tags_any or tags_all)
    src              each source (into src_prefix; a prefix also matches longer sources)
    doc_id           each document (into doc_ids)
    collection       each collection the caller may read (the collection searched)
    metadata.<key>   each value of a metadata key: a string, number or boolean, each
                     element of an array (into filter, as {"<key>": value})
"""

from __future__ import annotations

from dataclasses import dataclass

from app.errors import BadRequest
from app.search.metadata import MAX_KEY_LENGTH, MAX_KEY_LEVELS, JsonPath, key_path

METADATA_PREFIX = "metadata."
MAX_FIELDS = 12


@dataclass(frozen=True)
class FacetKind:
    kind: str  # as api.facet_sql names it
    refines: str  # the search field a value narrows
    meaning: str  # for people


KINDS: dict[str, FacetKind] = {
    "tags": FacetKind("tags", "tags_any", "each tag"),
    "src": FacetKind("src", "src_prefix", "each source"),
    "doc_id": FacetKind("doc_id", "doc_ids", "each document"),
    "collection": FacetKind("collection", "collection", "each collection the key may read"),
}
METADATA = FacetKind("metadata", "filter", "each value of a metadata key")


@dataclass(frozen=True)
class FacetField:
    """One requested field: its name in the request and the response, its kind, and for
    a metadata key the jsonpath of the values a filter {key: value} compares."""

    name: str
    kind: FacetKind
    path: JsonPath | None = None

    @property
    def key(self) -> str | None:
        return self.name[len(METADATA_PREFIX) :] if self.path is not None else None


# A scalar the key holds, or each scalar element of an array it holds (lax mode unwraps
# arrays on the way, as a filter's comparison does).
SCALARS = ' ? (@.type() == "string" || @.type() == "number" || @.type() == "boolean")'

FIELD_RULE = (
    "must be tags, src, doc_id, collection or metadata.<key> (a metadata key: names "
    f"joined by dots, at most {MAX_KEY_LEVELS} levels and {MAX_KEY_LENGTH} characters)"
)


def facet_field(name: str, where: str) -> FacetField:
    """The field a request names (a 400 naming ``where`` and the rule otherwise)."""
    if name in KINDS:
        return FacetField(name, KINDS[name])
    key = name[len(METADATA_PREFIX) :] if name.startswith(METADATA_PREFIX) else ""
    parts = key.split(".")
    if not key or "" in parts or len(parts) > MAX_KEY_LEVELS or len(key) > MAX_KEY_LENGTH:
        raise BadRequest(f"{where} {FIELD_RULE}", field="fields")
    return FacetField(name, METADATA, JsonPath("lax " + key_path(key, where) + "[*]" + SCALARS))


def facet_fields(names: list[str]) -> list[FacetField]:
    """The fields of a request, each named once."""
    fields = [facet_field(name, f"fields[{n}]") for n, name in enumerate(names)]
    seen: set[str] = set()
    for n, field in enumerate(fields):
        if field.name in seen:
            raise BadRequest(f"fields[{n}]: {field.name} is named twice", field="fields")
        seen.add(field.name)
    return fields


def describe() -> str:
    """The fields in one paragraph (the OpenAPI description of ``fields``)."""
    kinds = "; ".join(f"{name}: {kind.meaning} (a value narrows {kind.refines})"
                      for name, kind in KINDS.items())  # fmt: skip
    return (
        f"What to count, at most {MAX_FIELDS} fields: {kinds}; metadata.<key>: "
        f"{METADATA.meaning} (strings, numbers, booleans, each element of an array; a value "
        'narrows filter as {"<key>": value}).'
    )
