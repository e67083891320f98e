"""The walk's check read through a graph of its own: what a search would save if the
sample were walked instead of scored whole.

    python bench/sample_walk.py --n 100000 --dims 384 --queries 100 --sample-ef-search 40

Today the check scores every sampled chunk of the collection (about 1,000, read
index-only from the sample's b-tree, which holds their vectors) against the query, though
only the few nearer than the walk's bound matter. The prototype gives the sampled chunks
an HNSW index of their own (partial: the sample's predicate) and walks it in order until
the next chunk's similarity falls under the bound (less the half-precision rounding),
checking those few exactly as before.

All in one transaction on the corpus database of bench/search_bench.py, rolled back at the
end: the blend profile of bench/blend_profile.py with the check as it is; then, inside a
savepoint, the partial index built and the space's sample function replaced by the walk;
then, the savepoint rolled back, the check as it is again (so drift shows). Per mix: p50
latencies, the check's mean ms, and whether the searches ended as before (rounds, walks
deepened, scans).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import numpy as np
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.blend_profile import Profile, arguments, report, run
from bench.common import corpus_database, prewarm, print_table, server
from bench.corpus import CorpusSpec, query_vectors
from bench.search_bench import MIXES

INDEX = "bench_sample_walk"
# the check's first statement, every sampled chunk scored (sql/functions/space_functions.sql)
SCORED_WHOLE = re.compile(r"    SELECT count\(\*\)::integer,\n.*?OFFSET 0\) s\) s;\n", re.S)
WALKED = """    sampled := 0;
    v_past := '{{}}';
    v_past_sims := '{{}}';
    FOR r IN SELECT v.chunk_pk, (1 - (v.embedding <=> v_q))::float8 AS sim, v.dist
             FROM (SELECT v.chunk_pk, v.embedding, {ann} AS dist FROM {table} v
                   WHERE v.collection_id = p.collection_id AND v.{sample}
                   ORDER BY 3) v LOOP
        EXIT WHEN 1 - r.dist < p_bound - 0.002;  -- half-precision rounding
        sampled := sampled + 1;
        IF r.sim > p_bound AND r.chunk_pk <> ALL (p_read) THEN
            v_past := v_past || r.chunk_pk;
            v_past_sims := v_past_sims || r.sim;
        END IF;
    END LOOP;
"""


def install(conn: psycopg.Connection, ef_search: int, space_name: str = "default") -> str:
    """The partial HNSW index over the sample of the default collection, and the space's
    sample function replaced by a walk of it; returns the index's definition."""
    space, collection, dims, sample = conn.execute(
        "SELECT s.id, api.collection_id('default'), s.dims, api.sample_predicate()"
        " FROM rag.spaces s WHERE s.name = %s",
        (space_name,),
    ).fetchone()
    (main,) = conn.execute(
        "SELECT pg_get_indexdef(format('rag.%%I', api.hnsw_index(%s, %s))::regclass)",
        (space, collection),
    ).fetchone()
    definition = re.sub(r"INDEX \S+ ON", f"INDEX {INDEX} ON", main)
    definition = re.sub(r"WITH \(.*\)", "WITH (m = 16, ef_construction = 64)", definition)
    definition += f" WHERE {sample}"
    conn.execute(definition)
    (body,) = conn.execute(
        "SELECT pg_get_functiondef(format('api.space_%%s_sample', %s::text)::regproc)", (space,)
    ).fetchone()
    (table, ann) = conn.execute(
        "SELECT 'rag.' || api.vector_table(%s), api.ann_order_sql('v', 'v_qh', %s)", (space, dims)
    ).fetchone()
    walked = WALKED.format(ann=ann, table=table, sample=sample)
    body, found = SCORED_WHOLE.subn(lambda _: walked, body)
    if found != 1:
        raise SystemExit("the sample function's first statement was not found")
    declared = f"    v_qh halfvec({dims}) := l2_normalize(v_q)::halfvec({dims});\n    r record;\n"
    body = re.sub(r"(    v_q vector := [^\n]*\n)", lambda m: m.group(1) + declared, body, count=1)
    settings = f" STABLE\n SET hnsw.ef_search TO '{ef_search}'\n SET enable_sort TO 'off'\n"
    conn.execute(body.replace(" STABLE\n", settings, 1))
    return definition


def compare(runs: dict[str, list[Profile]]) -> None:
    rows = []
    for i, mix in enumerate(next(iter(runs.values()))):
        row: list[object] = ["/".join(map(str, mix.weights))]
        for profiles in runs.values():
            p = profiles[i]
            ratio = float(np.median(p.ours_ms)) / float(np.median(p.ann_ms))
            row += [f"{ratio:.2f}x", float(np.mean(p.phases["check"])),
                    f"{sum(r > 1 for r in p.rounds)}/{p.fell_back}"]  # fmt: skip
        rows.append(row)
    headers = ["weights"]
    for name in runs:
        headers += [f"{name}: ours / ann p50", f"{name}: check ms", f"{name}: deepened/scanned"]
    print("\n### the check scored whole against walked (check: mean ms per request)")
    print_table(headers, rows)


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--sample-ef-search", type=int, default=40)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries)
    mixes = [m for m in MIXES if m[0] > 0]  # the check runs where a walk is trusted
    runs: dict[str, list[Profile]] = {}
    with server() as admin:
        url = corpus_database(admin, spec)
        with psycopg.connect(url) as conn:
            prewarm(conn)
            print(f"\n{spec.n:,} chunks x {spec.dims} dims, {args.queries} queries, "
                  f"ef_search {args.ef_search}, {time.strftime('%Y-%m-%d %H:%M')}")  # fmt: skip
            runs["scored"] = run(conn, queries, args.ef_search, mixes)
            conn.execute("SAVEPOINT walked_sample")
            print(install(conn, args.sample_ef_search), file=sys.stderr)
            runs["walked"] = run(conn, queries, args.ef_search, mixes)
            conn.execute("ROLLBACK TO SAVEPOINT walked_sample")
            runs["scored again"] = run(conn, queries, args.ef_search, mixes)
            conn.rollback()
    for name, profiles in runs.items():
        print(f"\n## {name}")
        report(profiles)
    compare(runs)


if __name__ == "__main__":
    main()
