"""The balance `profile: auto` takes from a query's own retrieval evidence.

The evidence is the default-balance ranking's top rows: how far the best keyword score
stands above the rest (a few chunks share rare query words) against how far the best
semantic score does. The difference says which stream is sure of itself; a rule maps it
to a vector share, and keeps the default balance when the difference is small (unsure).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_SHARE = 0.5
EVIDENCE_ROWS = 10  # rows of the default-balance ranking the evidence is read from


@dataclass(frozen=True)
class Evidence:
    lex_peak: float  # best keyword score minus the mean of the top rows'
    sem_peak: float  # the same for the semantic score
    rows: int

    @property
    def lean(self) -> float:
        """> 0: the keyword evidence is the sharper; < 0: the semantic one."""
        return self.lex_peak - self.sem_peak

    def as_dict(self) -> dict[str, float]:
        return {"lex_peak": round(self.lex_peak, 4), "sem_peak": round(self.sem_peak, 4),
                "lean": round(self.lean, 4), "rows": self.rows}  # fmt: skip


def _peak(values: Sequence[float]) -> float:
    return max(values) - sum(values) / len(values) if values else 0.0


def evidence_of(rows: Sequence[Mapping[str, Any]]) -> Evidence:
    top = rows[:EVIDENCE_ROWS]
    return Evidence(
        lex_peak=_peak([float(row.get("lex") or 0.0) for row in top]),
        sem_peak=_peak([float(row.get("sem") or 0.0) for row in top]),
        rows=len(top),
    )


@dataclass(frozen=True)
class EvidenceRule:
    center: float  # the lean at which neither stream is the sharper
    margin: float  # |lean - center| within this: unsure, keep the default balance
    step: float  # how far from the default balance a sure lean moves the vector share

    def vector_share(self, evidence: Evidence, base: float = DEFAULT_SHARE) -> float:
        """The vector share for this evidence, moved from ``base`` (the default)."""
        if evidence.rows == 0 or abs(evidence.lean - self.center) <= self.margin:
            return base
        direction = -1.0 if evidence.lean > self.center else 1.0
        return round(min(1.0, max(0.0, base + direction * self.step)), 4)
