"""The account of a split collection's search, merged over its parts."""

from __future__ import annotations

from typing import Any

import pytest

from app.search.merge import merged_meta

pytestmark = pytest.mark.unit


def _part(strategy: str, reason: str, fell_back: bool) -> dict[str, Any]:
    return {"strategy": strategy, "strategy_reason": reason, "exact": True,
            "approximate_streams": [], "fell_back": fell_back, "candidates_scanned": 10,
            "keyword_matches": None, "search_time_ms": 1.0, "timings_ms": {}}  # fmt: skip


def test_the_reason_says_why_a_part_fell_back() -> None:
    meta = merged_meta([
        _part("threshold", "the walk closed", False),
        _part("scan", "a sampled chunk beyond the walk's bound", True),
    ])  # fmt: skip
    assert meta["strategy"] == "by part" and meta["fell_back"]
    assert meta["strategy_reason"] == (
        "split collection: 2 parts ranked and merged; "
        "part 2: a sampled chunk beyond the walk's bound"
    )


def test_parts_that_did_not_fall_back_are_not_named() -> None:
    meta = merged_meta([_part("threshold", "closed", False), _part("threshold", "closed", False)])
    assert meta["strategy"] == "threshold" and not meta["fell_back"]
    assert meta["strategy_reason"] == "split collection: 2 parts ranked and merged"
