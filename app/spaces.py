"""What searches and ingest know of a registered embedding space."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.embed.config import EmbedderConfig


@dataclass(frozen=True)
class SpaceInfo:
    id: int
    name: str
    dims: int
    embedder: EmbedderConfig | None = None  # None: clients send the space's vectors
    model: str = ""

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SpaceInfo:
        """From a row (or JSON object) with id, name, dims and optionally embedder, model."""
        config = row.get("embedder")
        return cls(
            row["id"], row["name"], row["dims"],
            EmbedderConfig.model_validate(config) if config else None, row.get("model") or "",
        )  # fmt: skip
