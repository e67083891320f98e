"""What /readyz reports: the database reachable, its schema and SQL functions those of
this version, on a Citus cluster each worker and whether the coordinator reaches it, and
anything degraded (an HNSW index missing, a worker unreachable)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import dict_row

from app.db.locks import BULK
from app.db.migrate import head_revision
from app.db.replicas import PRIMARY, ReplicaSet, describe
from app.db.sqlfiles import functions_digest, queries
from app.db.supervisor import DatabaseSupervisor, State
from app.errors import RagError, from_database_error

READY_WITHIN = 1.0  # seconds: /readyz answers within 2 s whatever the database does
_abandoned: set[asyncio.Task[Readiness]] = set()  # checks given up on, still cleaning up


@dataclass
class Readiness:
    ok: bool
    body: dict[str, Any] = field(default_factory=dict)


def _index_notes(missing: list[dict[str, Any]]) -> list[str]:
    notes = []
    for row in missing:
        where = f"{row['space']}/{row['collection']}"
        if row["loading"]:
            notes.append(f"HNSW index {where}: a bulk load is building it")
        else:
            notes.append(f"HNSW index {where} missing: rebuilding (searches there scan)")
    return notes


async def readiness(database: DatabaseSupervisor, replicas: ReplicaSet) -> Readiness:
    """The primary's readiness, every database with its role (and a replica's lag), and
    replicas out of rotation among the degraded parts; within READY_WITHIN seconds even
    when the database hangs."""
    ready = await _within_bound(database)
    primary = {"name": PRIMARY, "role": "primary", "at": describe(database.url), "ok": ready.ok}
    standbys = replicas.status()
    workers = ready.body.pop("workers", [])
    ready.body["databases"] = [primary, *standbys, *workers]
    notes = ready.body.get("degraded", []) + [
        f"{r['name']} out of rotation: {r.get('error')}" for r in standbys if not r["in_rotation"]
    ] + [
        f"worker {w['at']} unreachable: its collections answer 503 until it is back"
        for w in workers if not w["ok"]
    ]  # fmt: skip
    if notes:
        ready.body["degraded"] = notes
    return ready


async def _within_bound(database: DatabaseSupervisor) -> Readiness:
    """The primary's readiness, or not ready once READY_WITHIN seconds have passed (the
    check is then cancelled and left to finish in the background: cancelling a query on
    a hung server may itself wait for it)."""
    check = asyncio.ensure_future(_primary_readiness(database))
    done, _ = await asyncio.wait({check}, timeout=READY_WITHIN)
    if done:
        return check.result()
    check.cancel()
    _abandoned.add(check)
    check.add_done_callback(_abandoned.discard)
    database.notice_failure()
    late = f"the database did not answer within {READY_WITHIN} s"
    return Readiness(False, {"ok": False, "error": late})


async def _primary_readiness(database: DatabaseSupervisor) -> Readiness:
    if database.state is State.DOWN:
        return Readiness(False, {"ok": False, "error": "the database is unavailable: "
                                 + database.last_error})  # fmt: skip
    try:
        async with database.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(queries("meta").readiness)
            row = await cursor.fetchone() or {}
            await cursor.execute(queries("meta").missing_indexes, (BULK,))
            missing = await cursor.fetchall()
            workers = await _workers(conn)
    except Exception as error:  # any failure means "not ready", reported as such
        failure = error if isinstance(error, RagError) else from_database_error(error)
        return Readiness(False, {"ok": False, "error": failure.message})
    problems = []
    if row.get("revision") != head_revision():
        problems.append(f"schema at revision {row.get('revision')}, expected {head_revision()}")
    if row.get("functions_digest") != functions_digest():
        problems.append("SQL functions differ from this version; run `ragsearch migrate`")
    if problems:
        return Readiness(False, {"ok": False, "error": "; ".join(problems)})
    body: dict[str, Any] = {"ok": True, "revision": row.get("revision"), "workers": workers}
    if missing:
        body["degraded"] = _index_notes(missing)
    return Readiness(True, body)


async def _workers(conn: AsyncConnection) -> list[dict[str, Any]]:
    """A Citus cluster's workers, each tried by the coordinator (a quarter of a second at
    most); none on one node."""
    q = queries("cluster")
    async with conn.transaction(), conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(q.distributed)
        if not (await cursor.fetchone() or {}).get("distributed"):
            return []
        await cursor.execute(q.bound_node_connections)
        await cursor.execute(q.workers)
        rows = await cursor.fetchall()
    return [{"name": f"worker {r['at']}", "role": "worker", "at": r["at"],
             "ok": bool(r["active"] and r["reachable"])} for r in rows]  # fmt: skip
