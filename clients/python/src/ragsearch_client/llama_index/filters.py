"""LlamaIndex's MetadataFilters in ragsearch's filter language (MongoDB's)."""

from __future__ import annotations

from typing import Any

from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

COMPARISONS = {
    FilterOperator.EQ: "$eq",
    FilterOperator.NE: "$ne",
    FilterOperator.GT: "$gt",
    FilterOperator.GTE: "$gte",
    FilterOperator.LT: "$lt",
    FilterOperator.LTE: "$lte",
    FilterOperator.IN: "$in",
    FilterOperator.NIN: "$nin",
    FilterOperator.ANY: "$in",  # equality on an array holds for any element
}


def to_filter(filters: MetadataFilters) -> dict[str, Any]:
    """``{"$and": [...]}`` (or ``$or``; ``not`` negates the conjunction). Refused with
    ValueError: text matching, which the filter language does not have."""
    parts = [
        to_filter(part) if isinstance(part, MetadataFilters) else condition(part)
        for part in filters.filters
    ]
    if filters.condition == FilterCondition.OR:
        return {"$or": parts}
    if filters.condition == FilterCondition.NOT:
        return {"$not": {"$and": parts}}
    return {"$and": parts}


def condition(rule: MetadataFilter) -> dict[str, Any]:
    key, value, operator = rule.key, rule.value, rule.operator
    if operator in COMPARISONS:
        return {key: {COMPARISONS[operator]: value}}
    if operator == FilterOperator.CONTAINS:
        return {key: value}
    if operator == FilterOperator.ALL:
        values = value if isinstance(value, list) else [value]
        return {"$and": [{key: item} for item in values]}
    if operator == FilterOperator.IS_EMPTY:  # an empty array is not told apart from a value
        return {"$or": [{key: {"$exists": False}}, {key: None}]}
    raise ValueError(f"metadata filter operator {operator.value!r} is not supported by ragsearch")
