"""The benchmarks' order per query: each query starts at the next case, so that no case
always runs first (bench/common.py rotated), and within a case the scan runs first and
the other methods each in turn after it (bench/search_bench.py method_order); the blend
profile's two searches of a case each run first as often (bench/blend_profile.py
pair_order)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.blend_profile import pair_order
from bench.common import rotated
from bench.search_bench import method_order


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


def test_the_scan_first_then_each_method_in_turn() -> None:
    names = ["ann", "scan", "rescored", "ours", "ours_exact"]
    orders = [method_order(names, i) for i in range(4)]
    assert all(order[0] == "scan" for order in orders)
    assert [order[1] for order in orders] == ["ann", "rescored", "ours", "ours_exact"]
    assert all(sorted(order) == sorted(names) for order in orders)


def test_without_the_scan_each_method_in_turn() -> None:
    assert method_order(["ann", "rescored", "ours"], 1) == ["rescored", "ours", "ann"]


def test_the_profiles_two_searches_each_first_as_often_for_every_case() -> None:
    cases = 6
    for case in range(cases):
        # the queries at which this case runs first, and which of its searches leads
        first = [pair_order(i, cases)[0] for i in range(120) if rotated(range(cases), i)[0] == case]
        assert first.count("ann") == first.count("ours") == 10
    every = [pair_order(i, cases)[0] for i in range(120)]
    assert every.count("ann") == every.count("ours") == 60
    assert all(sorted(pair_order(i, cases)) == ["ann", "ours"] for i in range(12))


def test_the_pair_order_with_odd_and_no_cases() -> None:
    assert [pair_order(i, 3)[0] for i in range(7)] == ["ann"] * 3 + ["ours"] * 3 + ["ann"]
    assert pair_order(1, 0) == ["ours", "ann"]
