"""The filters every kind of search accepts, and the one place each is defined.

Only chunks that pass every given filter rank. Each filter is declared twice side by side
in this module and nowhere else: its request field (type, description, rule) in
``FilterFields``, and its SQL side in ``FILTERS`` (the field of ``api.search_filter`` it
becomes, the predicate over a chunk, and how the request value converts). The SQL type,
``api.passes`` (a chunk passes every given filter), ``api.filter_sql`` (the same as text
for statements planned per request) and ``api.failed_filters`` (which filters a chunk
fails, for explanations) are generated from ``FILTERS`` (``filter_sql``) and applied with
the function files.

``filter`` is a condition on the chunk's metadata merged over its document's, in
MongoDB's query language, compiled to jsonpath here (app/search/metadata.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field

from app.search.metadata import Condition, JsonPath, compile_filter, conditions, describe
from app.validation import CollectionName, Identifier, Text, Timestamp, check_json_value

Tag = Annotated[Text, Field(min_length=1, max_length=200)]
MetadataFilter = Annotated[dict[str, Any], AfterValidator(check_json_value)]


class FilterFields(BaseModel):
    """Fields shared by search requests: the collection, and what a chunk must pass."""

    collection: CollectionName = Field(
        default="default", description="The collection to search (POST /api/rag/collections)."
    )
    doc_ids: list[Identifier] | None = Field(
        default=None, max_length=10_000, description="Only chunks of these documents."
    )
    src_prefix: Annotated[Text, Field(min_length=1, max_length=4096)] | None = Field(
        default=None, description="Only chunks whose src starts with this."
    )
    tags_any: list[Tag] | None = Field(
        default=None, max_length=1000, description="Only chunks with at least one of these tags."
    )
    tags_all: list[Tag] | None = Field(
        default=None, max_length=1000, description="Only chunks with every one of these tags."
    )
    created_after: Timestamp | None = Field(default=None, description="created_at >= this.")
    created_before: Timestamp | None = Field(default=None, description="created_at < this.")
    filter: MetadataFilter | None = Field(
        default=None,
        description=describe(),
        json_schema_extra={"examples": [{"year": {"$gte": 2020}, "lang": "en"}]},
    )

    def given_filters(self) -> dict[str, Any]:
        """The filters given (the collection aside), by field name."""
        return {spec.name: getattr(self, spec.name) for spec in FILTERS
                if getattr(self, spec.name) is not None}  # fmt: skip


FILTER_RULES = {
    "collection": "collection must be a collection name (lower-case letters, digits, _ and -, "
    "starting with a letter or digit, at most 63)",
    "doc_ids": "doc_ids must be an array of non-empty strings",
    "tags_any": "tags_any must be an array of tags (non-empty strings of at most 200 characters)",
    "tags_all": "tags_all must be an array of tags (non-empty strings of at most 200 characters)",
    "src_prefix": "src_prefix must be a non-empty string of at most 4096 characters",
    "created_after": "created_after must be an ISO 8601 timestamp",
    "created_before": "created_before must be an ISO 8601 timestamp",
    "filter": "filter must be an object of metadata conditions",
}


def like_prefix(prefix: str) -> str:
    """A LIKE pattern matching the strings that start with ``prefix``."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class FilterSpec:
    """The SQL side of one filter: ``predicate`` is SQL over ``c`` (a rag.chunks row) and
    ``{f}`` (the filter's value) and ``{meta}`` (the chunk's metadata, its document's
    merged in), and holds for the chunks that pass it; ``scan`` is the
    same condition written for a statement planned per request (api.filter_sql), when it
    needs another form to read an index (default: the predicate), where ``{filter}`` is
    the whole api.search_filter."""

    name: str  # the request field
    sql_name: str  # the api.search_filter field
    sql_type: str
    predicate: str
    to_sql: Callable[[Any], Any] = _same
    scan: str | None = None


# The metadata filter in a statement planned per request, exact and on indexes: the chunks
# with metadata of their own by their merged view (GIN on rag.chunks.meta), the others by
# their document's (GIN on rag.documents.metadata, then the chunks' document_id index).
METADATA_SCAN = (
    "(c.meta @@ {f} OR (c.meta IS NULL AND c.document_id = ANY (ARRAY("
    "SELECT d.id FROM rag.documents d WHERE d.collection_id = {filter}.collection_id "
    "AND d.metadata @@ {f}))))"
)

FILTERS: tuple[FilterSpec, ...] = (
    FilterSpec("doc_ids", "doc_ids", "text[]", "c.doc_id = ANY ({f})"),
    FilterSpec("src_prefix", "src_like", "text", "c.src LIKE {f}", like_prefix),
    FilterSpec("tags_any", "tags_any", "text[]", "c.tags && {f}"),
    FilterSpec("tags_all", "tags_all", "text[]", "c.tags @> {f}"),
    FilterSpec("created_after", "created_after", "timestamptz", "c.created_at >= {f}"),
    FilterSpec("created_before", "created_before", "timestamptz", "c.created_at < {f}"),
    FilterSpec("filter", "metadata", "jsonpath", "{meta} @@ {f}", compile_filter,
               scan=METADATA_SCAN),
)  # fmt: skip


@dataclass(frozen=True)
class SqlFilter:
    """An ``api.search_filter`` value: the collection and each filter's SQL value, in
    ``FILTERS`` order (None: not given)."""

    collection_id: int
    values: tuple[Any, ...]

    def as_sequence(self) -> list[Any]:
        return [self.collection_id, *self.values]

    @property
    def filtered(self) -> bool:
        return any(value is not None for value in self.values)


def sql_filter(collection_id: int, given: dict[str, Any]) -> SqlFilter:
    """The filters of a request (``FilterFields.given_filters``) in their SQL form; the
    metadata filter is compiled here, so its errors are 400s naming the rule."""
    values = tuple(
        None if given.get(spec.name) is None else spec.to_sql(given[spec.name]) for spec in FILTERS
    )
    return SqlFilter(collection_id, values)


def metadata_conditions(given: dict[str, Any]) -> list[Condition]:
    """Each comparison of the metadata filter on its own (for explanations)."""
    return list(conditions(given["filter"])) if given.get("filter") else []


def filter_type_sql() -> str:
    """api.search_filter and the functions generated from FILTERS."""
    fields = ",\n".join(f"    {spec.sql_name} {spec.sql_type}" for spec in FILTERS)
    passes = "\n       AND ".join(
        f"(f.{spec.sql_name} IS NULL OR {_held(spec, PASSED_META)})" for spec in FILTERS
    )
    as_text = ",\n        ".join(
        f"CASE WHEN f.{spec.sql_name} IS NOT NULL THEN "
        f"format({_quoted(_scan_form(spec))},"
        " p_param) END"
        for spec in FILTERS
    )
    failed = ",\n        ".join(
        f"CASE WHEN f.{spec.sql_name} IS NOT NULL AND NOT {_held(spec, LOOKED_UP_META)} "
        f"THEN '{spec.name}' END"
        for spec in FILTERS
    )
    return f"""
CREATE TYPE api.search_filter AS (
    collection_id integer,
{fields}
);

-- Whether chunk c passes every given filter; p_document_meta: its document's metadata,
-- written at each call as the subquery (SELECT d.metadata FROM rag.documents d WHERE d.id =
-- c.document_id AND d.collection_id = c.collection_id), which runs only when needed.
-- Inlined into the searches' statements, where the filter is a parameter (the planner
-- reads c's columns straight from the row).
CREATE FUNCTION api.passes(f api.search_filter, c rag.chunks, p_document_meta jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
AS $$
    SELECT {passes}
$$;

-- The same as SQL text over "c" (rag.chunks) and the filter in parameter p_param, with
-- only the filters given, so that a statement planned for one request can use the index
-- of each.
CREATE FUNCTION api.filter_sql(f api.search_filter, p_param text)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT concat_ws(' AND ', format('c.collection_id = (%s).collection_id', p_param),
        {as_text})
$$;

-- The filters chunk c fails, each checked on its own, by request field name.
CREATE FUNCTION api.failed_filters(f api.search_filter, c rag.chunks)
RETURNS text[]
LANGUAGE sql IMMUTABLE
AS $$
    SELECT array_remove(ARRAY[
        {failed}], NULL)
$$;
"""


def _scan_form(spec: FilterSpec) -> str:
    """The scan's condition over the filter in parameter %1$s."""
    return (spec.scan or spec.predicate).format(f=f"(%1$s).{spec.sql_name}", filter="(%1$s)")


PASSED_META = "api.chunk_meta(c, p_document_meta)"
LOOKED_UP_META = "api.chunk_meta(c)"


def _held(spec: FilterSpec, meta: str) -> str:
    """The predicate on filter value f, false where SQL would say unknown."""
    return f"coalesce({spec.predicate.format(f=f'f.{spec.sql_name}', meta=meta)}, false)"


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def json_filter(collection_id: int, given: dict[str, Any]) -> dict[str, Any]:
    """The filters as a JSON object of api.search_filter's fields (what a SQL client
    passes to api.rag_topk_weighted's p_filters)."""
    found = sql_filter(collection_id, given)
    return {
        spec.sql_name: value.isoformat() if isinstance(value, datetime) else value
        for spec, value in zip(FILTERS, found.values, strict=True)
        if value is not None
    }


def field_names() -> Sequence[str]:
    return [spec.sql_name for spec in FILTERS]


__all__ = ["FILTERS", "FILTER_RULES", "FilterFields", "JsonPath", "SqlFilter", "sql_filter"]
