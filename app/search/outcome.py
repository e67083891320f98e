"""What one search produced, stage by stage (app/search/service.py runs the stages)."""

from __future__ import annotations

from dataclasses import dataclass

from app.search.plan import SearchPlan
from app.search.store import RankedRow, Ranking


@dataclass(frozen=True)
class SearchOutcome:
    """A search's stages: the plan the rows came from, its ranking, and the page."""

    plan: SearchPlan
    ranking: Ranking
    ranked: list[RankedRow]  # after diversity: the pages up to this one
    page: list[RankedRow]
    elapsed_ms: float
    embed_ms: float | None = None  # embedding the question, when the service did
