"""What searches and ingest know of a registered embedding space."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpaceInfo:
    id: int
    name: str
    dims: int
