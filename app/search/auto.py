"""`profile: auto` picks the keyword/vector balance from the query's own evidence.

When a query has both text and a vector and leaves the balance open, the ranking first
runs at the default balance (RAG_HYBRID_VECTOR_WEIGHT), deep enough to read the evidence
(app/search/evidence.py). If the evidence is sure of one stream, the query is ranked
again with the balance moved toward it; if not — most queries — the first ranking is the
answer, so the common case costs one ranking, as a fixed balance does. The query's class
(app/classify.py) still names the kind of question and suggests k.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from psycopg import AsyncConnection

from app.search.evidence import EVIDENCE_ROWS, EvidenceRule, evidence_of
from app.search.parts import rank
from app.search.plan import SearchPlan
from app.search.request import SearchRequest
from app.search.store import Ranking

# Chosen on the SciFact train queries (python bench/auto_evidence.py --split train --fit),
# for never losing rather than for the best mean: of 809 queries, the 82 whose keyword
# evidence is sharper by more than 0.2 move to 0.3 (3 better, none worse, nDCG@10 +0.0005);
# the 4 sharper on vectors by as much move to 0.7 (no change). Looser rules moved hundreds
# of queries for +0.002 with as many losses as wins: too little to trust on other data.
RULE = EvidenceRule(center=0.0, margin=0.2, step=0.2)

PlanWithShare = Callable[[float], SearchPlan]


def decides_balance(request: SearchRequest, plan: SearchPlan) -> bool:
    """auto, with keywords and vectors both in play and no balance given by the request."""
    given = (request.w_cos, request.w_lex, request.hybrid_vector_weight)
    return (
        plan.classification is not None
        and plan.text is not None
        and bool(plan.spaces)
        and all(weight is None for weight in given)
    )


def _decision(share: float, default: float) -> str:
    if share == default:
        return "kept the default balance: neither stream is clearly the sharper"
    return "moved toward keywords" if share < default else "moved toward vectors"


async def evidence_search(
    conn: AsyncConnection, plan_with: PlanWithShare, default_share: float
) -> tuple[SearchPlan, Ranking]:
    """The plan whose balance the evidence chose, and its ranking."""
    first = plan_with(default_share)
    # The first ranking serves as the probe when it already holds the top rows from rank 1
    # (a first page deep enough, or the candidate pool diversity re-ranks).
    reads_top = first.rows_from == 0 and first.depth >= EVIDENCE_ROWS
    probe = first if reads_top else replace(first, k=max(EVIDENCE_ROWS, first.depth), offset=0)
    probed = await rank(conn, probe)
    evidence = evidence_of(probed.rows)
    share = RULE.vector_share(evidence, default_share)
    note: dict[str, Any] = {**evidence.as_dict(), "vector_share": share,
                            "decision": _decision(share, default_share)}  # fmt: skip
    if share == default_share:
        rows = probed.rows if probe is first else probed.rows[first.offset : first.offset + first.k]
        return replace(first, evidence=note), Ranking(rows=rows, meta=probed.meta)
    plan = replace(plan_with(share), evidence=note)
    return plan, await rank(conn, plan)
