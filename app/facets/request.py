"""The body of ``POST /api/rag/facets``: a search body (the same collection, filters and
query, so that a client sends what it searches with) plus the fields to count and how
many values of each to return."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field

from app.facets.fields import FIELD_RULE, MAX_FIELDS, FacetField, describe, facet_fields
from app.search.request import SEARCH_RULES, SearchRequest
from app.validation import Count, Text, parse_model

DEFAULT_FIELDS = ["tags", "src", "collection"]
DEFAULT_LIMIT = 10
MAX_LIMIT = 100
FieldName = Annotated[Text, Field(min_length=1, max_length=600)]


class FacetRequest(SearchRequest):
    """Body of ``POST /api/rag/facets``: a search body (the fields that rank or page rows
    are accepted and change nothing), ``fields`` and ``limit``."""

    # Neither a query nor a vector is needed: without them every chunk that passes counts.
    model_config = ConfigDict(extra="forbid", json_schema_extra=None)

    fields: list[FieldName] = Field(
        default_factory=lambda: list(DEFAULT_FIELDS),
        min_length=1,
        max_length=MAX_FIELDS,
        description=describe(),
    )
    limit: Count = Field(
        default=DEFAULT_LIMIT, ge=1, le=MAX_LIMIT,
        description=f"The most values returned per field, most chunks first (1..{MAX_LIMIT}).",
    )  # fmt: skip

    def facet_fields(self) -> list[FacetField]:
        return facet_fields(self.fields)


FACET_RULES: dict[str, Any] = {
    **SEARCH_RULES,
    "fields": f"fields must be an array of 1..{MAX_FIELDS} field names, each of which "
    + FIELD_RULE,
    "limit": f"limit must be an integer in 1..{MAX_LIMIT}",
}


def parse_facet_request(body: bytes | dict[str, Any]) -> FacetRequest:
    """The request, its fields checked (a 400 naming the field and the rule)."""
    request = parse_model(FacetRequest, body, FACET_RULES)
    request.facet_fields()
    request.refuse_a_blank_query()
    return request
