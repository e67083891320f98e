"""The filters every kind of search accepts, and how they reach the SQL functions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import BaseModel, Field, field_validator


def utc(value: datetime | None) -> datetime | None:
    """Timestamps without a zone are read as UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


class FilterFields(BaseModel):
    """Fields shared by search requests: only chunks passing all given filters rank."""

    doc_ids: list[Annotated[str, Field(min_length=1)]] | None = Field(
        default=None, max_length=10_000, description="Only chunks of these documents."
    )
    src_prefix: str | None = Field(
        default=None, min_length=1, description="Only chunks whose src starts with this."
    )
    tags_any: list[str] | None = Field(
        default=None, max_length=1000, description="Only chunks with at least one of these tags."
    )
    tags_all: list[str] | None = Field(
        default=None, max_length=1000, description="Only chunks with every one of these tags."
    )
    created_after: datetime | None = Field(default=None, description="created_at >= this.")
    created_before: datetime | None = Field(default=None, description="created_at < this.")

    _utc_filter_times = field_validator("created_after", "created_before")(utc)

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
        return found


FILTER_RULES = {
    "doc_ids": "doc_ids must be an array of non-empty strings",
    "tags_any": "tags_any must be an array of strings",
    "tags_all": "tags_all must be an array of strings",
    "src_prefix": "src_prefix must be a non-empty string",
    "created_after": "created_after must be an ISO 8601 timestamp",
    "created_before": "created_before must be an ISO 8601 timestamp",
}
