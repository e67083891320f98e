"""What a query's own retrieval evidence says about its best keyword/vector balance.

For every query of a split: one search at the default balance (vector share 0.5, top 10,
explained) gives the evidence — each row's semantic and keyword parts — and one search
per vector share 0.0, 0.1 .. 1.0 gives the nDCG@10 that share would have scored. Written
to bench/data/auto_evidence_<collection>_<split>.json for `--fit`, which searches the
rules `auto` could use (app/search/evidence.py) for the one with the best mean nDCG@10 on
that split. Tune on a training split only.

    python bench/auto_evidence.py --split train          # collect (~6 min on SciFact)
    python bench/auto_evidence.py --split train --fit    # fit the rule's parameters
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.classify import classify
from app.search.evidence import EvidenceRule, evidence_of
from bench.common import print_table
from bench.quality import DATASETS, Collection, b64, loaded, ndcg_at

SHARES = [round(x, 1) for x in np.arange(0.0, 1.0001, 0.1)]
DATA = Path(__file__).resolve().parent / "data"
OFF = {"w_rec": 0.0, "w_sig": 0.0, "profile": "default", "max_per_source": 0}


def _search(client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/rag/search", json=body)
    response.raise_for_status()
    return response.json()


def collect(client: httpx.Client, collection: Collection) -> list[dict[str, Any]]:
    records = []
    for query_id, text in tqdm(collection.queries.items(), desc="queries", file=sys.stderr):
        base = {"query": text, "embedding": b64(collection.query_vectors[query_id]), **OFF}
        first = _search(client, {**base, "k": 10, "explain": True, "hybrid_vector_weight": 0.5})
        rows = [{"sem": r["components"]["sem"]["raw"], "lex": r["components"]["lex"]["raw"]}
                for r in first["rows"]]  # fmt: skip
        relevant = collection.qrels[query_id]
        ndcg = {}
        for share in SHARES:
            answer = _search(client, {**base, "k": 10, "hybrid_vector_weight": share})
            ndcg[str(share)] = ndcg_at([r["doc_id"] for r in answer["rows"]], relevant)
        records.append({"query_id": query_id, "text": text, "rows": rows, "ndcg": ndcg})
    return records


def score_rule(records: list[dict[str, Any]], rule: EvidenceRule) -> float:
    total = 0.0
    for record in records:
        share = rule.vector_share(evidence_of(record["rows"]))
        total += record["ndcg"][str(round(share, 1))]
    return total / len(records)


def _class_share(text: str) -> float:
    return classify(text).vector_share


def _gated_class_share(record: dict[str, Any], rule: EvidenceRule) -> float:
    """The class's balance, only where the evidence leans the same way."""
    share = _class_share(record["text"])
    lean = evidence_of(record["rows"]).lean - rule.center
    agrees = (share < 0.5 and lean > rule.margin) or (share > 0.5 and lean < -rule.margin)
    return share if agrees else 0.5


def _mean_at(records: list[dict[str, Any]], share_of: Callable[[dict[str, Any]], float]) -> float:
    return float(np.mean([r["ndcg"][str(round(share_of(r), 1))] for r in records]))


def fit(records: list[dict[str, Any]]) -> None:
    default = float(np.mean([r["ndcg"]["0.5"] for r in records]))
    oracle = float(np.mean([max(r["ndcg"].values()) for r in records]))
    by_class = _mean_at(records, lambda r: _class_share(r["text"]))
    print(f"class balances (surface rules alone): {by_class:.4f}")
    gated = max(
        (_mean_at(records, lambda r, c=c, m=m: _gated_class_share(r, EvidenceRule(c, m, 0))),
         round(c, 2), round(m, 2))
        for c in np.arange(-0.3, 0.301, 0.05) for m in np.arange(0.0, 0.31, 0.05)
    )  # fmt: skip
    print(f"class balances where the evidence agrees: {gated[0]:.4f} "
          f"(center {gated[1]}, margin {gated[2]})")  # fmt: skip
    table = []
    for center in np.arange(-0.3, 0.301, 0.05):
        for margin in np.arange(0.0, 0.31, 0.05):
            for step in (0.1, 0.2, 0.3):
                rule = EvidenceRule(float(center), float(margin), step)
                moved = sum(rule.vector_share(evidence_of(r["rows"])) != 0.5 for r in records)
                table.append([round(center, 2), round(margin, 2), step, moved,
                              f"{score_rule(records, rule):.4f}"])  # fmt: skip
    table.sort(key=lambda row: -float(row[4]))
    print(f"{len(records)} queries: default balance {default:.4f}, best share per query "
          f"(oracle) {oracle:.4f}")  # fmt: skip
    print_table(["center", "margin", "step", "queries moved", "nDCG@10"], table[:12])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=DATASETS / "scifact")
    parser.add_argument("--split", default="train", choices=["test", "train", "dev"])
    parser.add_argument("--fit", action="store_true", help="fit on collected evidence")
    parser.add_argument("--base-url", help="measure a running service (default: start one)")
    args = parser.parse_args()
    path = DATA / f"auto_evidence_{args.dataset.name}_{args.split}.json"
    if args.fit:
        if args.split == "test":
            parser.error("fit on a training split, never the test queries")
        fit(json.loads(path.read_text()))
        return
    with loaded(args) as (client, collection):
        DATA.mkdir(exist_ok=True)
        path.write_text(json.dumps(collect(client, collection)))
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
