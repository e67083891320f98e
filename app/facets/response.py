"""The response of ``POST /api/rag/facets``, as models (the route's response_model)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FacetValue(_Strict):
    value: str | int | float | bool = Field(
        description="A tag, source, doc_id or collection name, or a metadata value."
    )
    chunks: int = Field(description="How many of the chunks counted hold it.")


class Facet(_Strict):
    values: list[FacetValue] = Field(
        description="Most chunks first (ties by value), at most limit."
    )
    distinct: int = Field(description="How many distinct values the chunks counted hold.")
    exact: bool = Field(
        description="False when the budget ran out (RAG_FACET_MAX_CHUNKS): the counts are "
        "then over the chunks read so far, lower bounds."
    )
    refines: str = Field(
        description="The search field a value goes into to narrow a search to it: tags_any, "
        'src_prefix, doc_ids, collection, or filter (as {"<key>": value}).'
    )


class FacetsResponse(_Strict):
    ok: bool = True
    collection: str
    counted: Literal["filtered", "keyword_matches"] = Field(
        description="The chunks counted: every chunk of the collection that passes the "
        "filters, or for a keyword-only search those of them that hold a query term (the "
        "chunks the same search ranks from)."
    )
    chunks: int = Field(description="How many chunks pass (a lower bound when not exact).")
    exact: bool = Field(description="Every count is exact (no budget ran out).")
    max_chunks: int = Field(description="The budget: the most chunks one count reads.")
    facets: dict[str, Facet] = Field(description="One per field asked for, by its name.")
    took_ms: float
