"""The schema on the cluster: every table with a collection_id distributed by it beside
rag.documents, the small ones reference tables, and api.distribute_table doing the same
for a table created later (the hook of features that add per-space or per-collection
tables)."""

from __future__ import annotations

import psycopg

from app.cluster.local import LocalCluster
from app.resources.collection_limit import collection_limit

LAYOUT = """SELECT c.relname, d.partmethod, d.colocationid = (
                SELECT colocationid FROM pg_dist_partition
                WHERE logicalrelid = 'rag.documents'::regclass)
            FROM pg_dist_partition d JOIN pg_class c ON c.oid = d.logicalrelid
            WHERE c.relnamespace = 'rag'::regnamespace AND NOT c.relispartition"""


def layout(conn: psycopg.Connection) -> dict[str, tuple[str, bool]]:
    return {name: (method, colocated) for name, method, colocated in conn.execute(LAYOUT)}


def test_tables_by_collection_are_colocated_and_small_ones_are_reference_tables(cluster):
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        tables = layout(conn)
        local = conn.execute(
            """SELECT c.relname FROM pg_class c
               WHERE c.relnamespace = 'rag'::regnamespace AND c.relkind IN ('r', 'p')
                 AND NOT c.relispartition
                 AND NOT EXISTS (SELECT 1 FROM pg_dist_partition d WHERE d.logicalrelid = c.oid)"""
        ).fetchall()
    for name in ("documents", "chunks", "lex_postings", "lex_terms", "collection_counts",
                 "vectors_1"):  # fmt: skip
        assert tables[name] == ("h", True), name
    for name in ("spaces", "collections", "profiles", "goals"):
        assert tables[name][0] == "n", name
    assert {name for (name,) in local} >= {"jobs"}  # the coordinator's queue


def test_a_table_created_later_is_distributed_by_the_hook(cluster: LocalCluster):
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        conn.execute("""CREATE TABLE rag.hook_terms (collection_id integer NOT NULL,
                                                     term text NOT NULL, df integer,
                                                     PRIMARY KEY (collection_id, term))""")
        conn.execute("CREATE TABLE rag.hook_kinds (name text PRIMARY KEY)")
        try:
            for _twice in range(2):
                conn.execute("SELECT api.distribute_table('rag.hook_terms')")
                conn.execute("SELECT api.distribute_table('rag.hook_kinds')")
            tables = layout(conn)
            assert tables["hook_terms"] == ("h", True)
            assert tables["hook_kinds"][0] == "n"
            conn.execute("INSERT INTO rag.hook_terms VALUES (1, 'river', 3)")
            row = conn.execute(
                "SELECT df FROM rag.hook_terms WHERE collection_id = 1 AND term = 'river'"
            ).fetchone()
            assert row == (3,)
        finally:
            conn.execute("DROP TABLE rag.hook_terms, rag.hook_kinds")
            conn.execute("SELECT api.routing_changed()")


def test_the_collections_limit_counts_every_shard_of_a_partition(cluster: LocalCluster):
    """On Citus each per-collection partition is split into a shard per shard group: the
    limit drawn from the lock table divides by them (app/resources/collection_limit.py),
    and every node has the lock table RAG_PG_MAX_LOCKS_PER_TRANSACTION asks for."""
    settings = cluster.settings
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        row = conn.execute("SELECT api.partition_shards(),"
                           " current_setting('max_locks_per_transaction')").fetchone()  # fmt: skip
        assert row == (settings.citus_shard_count, str(settings.pg_max_locks_per_transaction))
        on_workers = conn.execute("SELECT result FROM run_command_on_workers("
                                  "'SHOW max_locks_per_transaction')").fetchall()  # fmt: skip
    assert {r for (r,) in on_workers} == {str(settings.pg_max_locks_per_transaction)}
    slots = settings.pg_max_locks_per_transaction * 300  # the nodes' max_connections
    assert collection_limit(settings, slots, settings.citus_shard_count) == slots // (16 * 8)
