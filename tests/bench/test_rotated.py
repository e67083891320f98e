"""The benchmarks' case order per query: each query starts at the next case, so that no
case always runs first (bench/common.py rotated)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.common import rotated


def test_each_query_starts_at_the_next_case() -> None:
    cases = ["a", "b", "c"]
    orders = [rotated(cases, i) for i in range(4)]
    assert orders == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "b", "c"]]


def test_every_case_runs_first_equally_often_and_once_per_query() -> None:
    cases = list(range(6))
    firsts = [rotated(cases, i)[0] for i in range(60)]
    assert all(firsts.count(c) == 10 for c in cases)
    assert all(sorted(rotated(cases, i)) == cases for i in range(60))


def test_no_cases() -> None:
    assert rotated([], 3) == []
