"""A chunk's foreign key is checked row by row, with a plan made once per connection:
made before rag.documents has statistics (a first bulk load), it must still find the
document by its key, not read every document of the collection for each chunk (which
made a first load of 100k chunks slow down batch after batch)."""

from __future__ import annotations

import psycopg

# The statement PostgreSQL runs for each chunk stored (RI_FKey_check_ins).
CHECK = (
    "EXPLAIN (GENERIC_PLAN) SELECT 1 FROM ONLY rag.documents x"
    " WHERE id OPERATOR(pg_catalog.=) $1::bigint"
    " AND collection_id OPERATOR(pg_catalog.=) $2::integer FOR KEY SHARE OF x"
)


def test_the_check_planned_without_statistics_finds_the_document_by_key(db_url):
    with psycopg.connect(db_url, autocommit=True) as conn, conn.transaction():
        conn.execute(
            "INSERT INTO rag.documents (doc_id, collection_id)"
            " SELECT 'doc-' || g, api.collection_id('default') FROM generate_series(1, 500) g"
        )
        (tuples,) = conn.execute(
            "SELECT reltuples FROM pg_class WHERE oid = 'rag.documents'::regclass"
        ).fetchone()
        assert tuples < 0  # never analyzed: what a first load's connection plans with
        plan = "\n".join(row[0] for row in conn.execute(CHECK))
        conditions = [line for line in plan.splitlines() if "Index Cond" in line]
        assert conditions and "id = $1" in conditions[0], plan
        assert "Filter" not in plan, plan
        raise psycopg.Rollback
