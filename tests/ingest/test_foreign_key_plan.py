"""A chunk's foreign key is checked row by row, with a plan made once per connection:
made before rag.documents has statistics (a first bulk load), it must still find the
document by its key, not read every document of the collection for each chunk (which
made a first load of 100k chunks slow down batch after batch)."""

from __future__ import annotations

import psycopg
import pytest

# The statement PostgreSQL runs for each chunk stored (RI_FKey_check_ins).
CHECK = (
    "EXPLAIN (GENERIC_PLAN) SELECT 1 FROM ONLY rag.documents x"
    " WHERE id OPERATOR(pg_catalog.=) $1::bigint"
    " AND collection_id OPERATOR(pg_catalog.=) $2::integer FOR KEY SHARE OF x"
)


OLD_INDEX = [
    "DROP INDEX rag.documents_by_collection_idx",
    "CREATE INDEX documents_collection_idx ON rag.documents (collection_id)",
]


def _plan_with_documents(conn: psycopg.Connection) -> str:
    """The check's plan once 500 documents are stored (uncommitted), the table never
    analyzed: the key's index splits into two levels, an index on collection_id alone
    (deduplicated) stays one page."""
    conn.execute(
        "INSERT INTO rag.documents (doc_id, collection_id)"
        " SELECT 'doc-' || g, api.collection_id('default') FROM generate_series(1, 500) g"
    )
    (tuples,) = conn.execute(
        "SELECT reltuples FROM pg_class WHERE oid = 'rag.documents'::regclass"
    ).fetchone()
    assert tuples < 0  # never analyzed: what a first load's connection plans with
    return "\n".join(row[0] for row in conn.execute(CHECK))


@pytest.fixture
def fresh_database(pg, template_db):
    """A new migrated database a test may change (each plan needs a table that has held
    nothing before)."""
    made = []

    def create() -> str:
        made.append(pg.create_database())
        return made[-1]

    yield create
    for url in made:
        pg.drop_database(url)


def test_the_check_planned_without_statistics_finds_the_document_by_key(fresh_database):
    with psycopg.connect(fresh_database(), autocommit=True) as conn:
        if conn.info.server_version < 160000:
            pytest.skip("EXPLAIN (GENERIC_PLAN) needs PostgreSQL 16")
        with conn.transaction(force_rollback=True):
            plan = _plan_with_documents(conn)
    conditions = [line for line in plan.splitlines() if "Index Cond" in line]
    assert conditions and "id = $1" in conditions[0], plan
    assert "Filter" not in plan, plan
    # with the index's earlier shape, this server plans the check as the first loads did:
    # the collection's documents read, filtered on id
    with psycopg.connect(fresh_database(), autocommit=True) as conn:
        for statement in OLD_INDEX:
            conn.execute(statement)
        with conn.transaction(force_rollback=True):
            assert "Filter: (id = $1)" in _plan_with_documents(conn)
