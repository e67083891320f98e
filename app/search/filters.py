"""The filters every kind of search accepts, and the form the SQL functions take them in.

Only chunks that pass every given filter rank. ``filter`` is a condition on the chunk's
metadata merged over its document's, in MongoDB's query language (as Pinecone, Chroma
and LangChain's vector stores write it); it is compiled in SQL (api.metadata_path in
sql/functions/006_filters.sql), which names an unknown operator in its 400.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field

from app.validation import (
    CollectionName,
    Identifier,
    Text,
    Timestamp,
    check_json_value,
)

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
        description="A condition on metadata (the chunk's over its document's): {\"year\": "
        '{"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq $ne $gt $gte $lt '
        "$lte $in $nin $exists, $and $or $nor $not; dotted keys reach into objects.",
        json_schema_extra={"examples": [{"year": {"$gte": 2020}, "lang": "en"}]},
    )

    def filters(self) -> dict[str, Any]:
        """The filters given, as the SQL functions' p_filters argument."""
        found: dict[str, Any] = {}
        for name in ("doc_ids", "src_prefix", "tags_any", "tags_all"):
            value = getattr(self, name)
            if value is not None:
                found[name] = value
        for name in ("created_after", "created_before"):
            value = getattr(self, name)
            if value is not None:
                found[name] = value.isoformat()
        if self.filter is not None:
            found["filter"] = self.filter
        return found


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
