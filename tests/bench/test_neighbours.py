"""The neighbours benchmark (bench/neighbours.py) runs its two phases against a real
service and endpoint: the quiet tenant's writes and searches are timed alone and beside
the flood, every request answered, and the flood stores chunks meanwhile."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conftest import PgServer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.neighbours import measure


def test_both_phases_are_measured(pg: PgServer) -> None:
    args = argparse.Namespace(seconds=2.0, writers=3, chunks=2, latency=0.05, concurrency=4)
    rows = measure("this", pg.admin_url, None, args)
    assert [row[:2] for row in rows] == [["this", "write"], ["this", "search"]]
    for row in rows:
        alone_n, flooded_n, errors = row[2], row[4], row[-1]
        assert alone_n > 0 and flooded_n > 0
        assert errors == 0
        assert float(str(row[10]).replace(",", "")) > 0  # the flood's chunks/s
