"""The schema on a Citus cluster, made ready in the migration's transaction.

Citus is used when the database has the ``citus`` extension (RAG_CITUS=auto), or always
(on: an error without it), or never (off). Then every table of schema rag whose rows all
belong to a collection (a ``collection_id`` NOT NULL) is distributed by it, co-located
with rag.documents (a collection whole on one worker), with RAG_CITUS_SHARD_COUNT shard
groups; the small tables are reference tables (on every node); the coordinator's own
bookkeeping (bulk loads, jobs, the embedding cache) stays on the coordinator. Tables
already distributed are left as they are, so this runs after every migration and
distributes what a migration added. Then the search entries are routed by
collection (sql/functions/distribution.sql, api.install_routing).
"""

from __future__ import annotations

import logging
from typing import Any

from app.settings import Settings

log = logging.getLogger("ragsearch")

ANCHOR = "documents"  # the table the others are co-located with
REFERENCE_TABLES = ("spaces", "collections", "profiles", "profile_versions", "goals")


class CitusMissing(RuntimeError):
    """RAG_CITUS=on, and the database has no citus extension."""


def uses_citus(conn: Any, settings: Settings) -> bool:
    """Whether this database is to be distributed (DB-API connection)."""
    if settings.citus == "off":
        return False
    row = conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'citus'").fetchone()
    present = bool(row and row[0])
    if settings.citus == "on" and not present:
        raise CitusMissing(
            "RAG_CITUS=on but the database has no citus extension (CREATE EXTENSION citus, "
            "with citus in shared_preload_libraries)"
        )
    return present


def begin(conn: Any) -> None:
    """First in the migration's transaction: Citus runs its DDL over one connection per
    node, so that statements on tables created in the same transaction see them."""
    conn.execute("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'")
    conn.execute("SET LOCAL citus.enable_unsafe_triggers TO on")


def sequential_by_default(conn: Any) -> None:
    """The service's transactions that change several shards (a collection created or
    dropped, a space registered or re-embedded) run over one connection per node, so
    that the routing made again in the same transaction (Citus runs function commands
    over one) follows them: parallel changes first would make it fail."""
    name = conn.execute("SELECT current_database()").fetchone()[0]
    mode = "SET citus.multi_shard_modify_mode TO 'sequential'"
    conn.execute(f'ALTER DATABASE "{name}" {mode}')


def drop_routing_copies(conn: Any) -> None:
    """Before the function files are applied again: the schemas of the workers' copies of
    the search functions (dropped on every node), which depend on api's types."""
    rows = conn.execute(
        "SELECT nspname FROM pg_namespace WHERE nspname ~ '^api_s[0-9]+$'"
    ).fetchall()
    for (schema,) in rows:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def distribute_schema(conn: Any, settings: Settings) -> list[str]:
    """Distribute the tables of schema rag not yet distributed; their names."""
    tables = _plain_tables(conn)
    reference = [name for name in REFERENCE_TABLES if name in tables]
    distributed = sorted(
        (name for name, by_collection in tables.items() if by_collection),
        key=lambda name: name != ANCHOR,
    )
    if not reference and not distributed:
        return []
    log.info("distributing %s", ", ".join(distributed + reference))
    # Foreign keys between a table being distributed and one becoming a reference table
    # stop either conversion: they are dropped first and added again after, but for those
    # of a table that stays on the coordinator (the jobs), which would make Citus manage
    # it too (and refuse parts of its queue's statements): api.drop_collection deletes
    # the collection's jobs itself.
    keys = _foreign_keys(conn, set(reference) | set(distributed))
    kept = set(reference) | set(distributed) | _citus_tables(conn)
    for table, name, _definition in keys:
        conn.execute(f'ALTER TABLE rag."{table}" DROP CONSTRAINT "{name}"')
    for name in distributed:
        if name == ANCHOR:
            conn.execute(
                "SELECT create_distributed_table(%s, 'collection_id', shard_count => %s)",
                (f"rag.{name}", settings.citus_shard_count),
            )
        else:
            conn.execute(
                "SELECT create_distributed_table(%s, 'collection_id', colocate_with => %s)",
                (f"rag.{name}", f"rag.{ANCHOR}"),
            )
    for name in reference:
        conn.execute("SELECT create_reference_table(%s)", (f"rag.{name}",))
    for table, name, definition in keys:
        if table in kept:
            conn.execute(f'ALTER TABLE rag."{table}" ADD CONSTRAINT "{name}" {definition}')
    return distributed + reference


def _citus_tables(conn: Any) -> set[str]:
    rows = conn.execute(
        """SELECT c.relname FROM pg_dist_partition d JOIN pg_class c ON c.oid = d.logicalrelid
           WHERE c.relnamespace = 'rag'::regnamespace"""
    ).fetchall()
    return {name for (name,) in rows}


def install_routing(conn: Any) -> None:
    """Route the search entries by collection. The functions it gives the workers are
    created there in no particular order: their bodies are not checked on the way (the
    setting travels with the transaction's next statements)."""
    conn.execute("SET LOCAL citus.propagate_set_commands TO 'local'")
    conn.execute("SET LOCAL check_function_bodies TO off")
    conn.execute("SELECT api.install_routing()")


def _plain_tables(conn: Any) -> dict[str, bool]:
    """Tables of schema rag that Citus does not manage yet (partitions aside), each with
    whether every row of it belongs to a collection (a NOT NULL collection_id)."""
    rows = conn.execute(
        """SELECT c.relname,
                  EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid
                          AND a.attname = 'collection_id' AND a.attnotnull
                          AND NOT a.attisdropped)
           FROM pg_class c
           WHERE c.relnamespace = 'rag'::regnamespace AND c.relkind IN ('r', 'p')
             AND NOT c.relispartition
             AND NOT EXISTS (SELECT 1 FROM pg_dist_partition d WHERE d.logicalrelid = c.oid)
           ORDER BY c.relname"""
    ).fetchall()
    return {name: bool(by_collection) for name, by_collection in rows}


def _foreign_keys(conn: Any, tables: set[str]) -> list[tuple[str, str, str]]:
    """(table, constraint, definition) of the foreign keys from or to these tables."""
    rows = conn.execute(
        """SELECT f.relname, k.conname, pg_get_constraintdef(k.oid), t.relname
           FROM pg_constraint k
           JOIN pg_class f ON f.oid = k.conrelid
           JOIN pg_class t ON t.oid = k.confrelid
           WHERE k.contype = 'f' AND k.connamespace = 'rag'::regnamespace
             AND k.conparentid = 0
           ORDER BY f.relname, k.conname"""
    ).fetchall()
    return [(source, name, definition) for source, name, definition, target in rows
            if source in tables or target in tables]  # fmt: skip
