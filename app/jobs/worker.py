"""Workers inside the service that run the queued jobs (RAG_JOB_WORKERS of them).

A worker takes the next waiting job (collections take turns: ``claim_job`` in
sql/queries/jobs.sql) with ``FOR UPDATE SKIP LOCKED`` under a lease of
RAG_JOB_LEASE_SECONDS, which it renews while it works (every REPORT_EVERY seconds, when it
also writes the job's progress and reads whether it was cancelled); a job whose lease runs out (its
worker was killed) is taken again by the next worker that looks. Its items are done in
order, each stored in the transaction that marks it done, so a resumed job starts at the
first item not stored; what it had embedded is in the embedding cache and is not
embedded again. A cancelled job stops at its worker's next check (between batches). An
ingest job that has held its worker RAG_JOB_TURN_SECONDS gives it, between two items, to
another collection's waiting job and goes back to the queue (``take_turns``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import dict_row

from app.db.connect import Connect
from app.db.sqlfiles import queries
from app.errors import (
    UNEXPECTED,
    ConnectionLost,
    RagError,
    Throttled,
    connection_lost,
    from_database_error,
    passing,
)
from app.settings import Settings

log = logging.getLogger("ragsearch")

# a slot of a collection's share, waited for so many seconds at most (None: no bound)
Share = Callable[[str, float | None], AbstractAsyncContextManager[None]]
IDLE_POLL = 1.0
MAX_ATTEMPTS = 5  # a job that failed in passing this often fails at the next
REPORT_EVERY = 1.0  # progress a page can follow as it goes; a cancel seen within a second


# chunks read, embedded, found in the cache and stored since the last flush (an ingest's
# stored chunks are counted with each item it finishes)
NO_PROGRESS = {"total": 0, "embedded": 0, "cached": 0, "stored": 0}


class JobStopped(Exception):
    """The job was cancelled, or another worker holds it now."""


class JobPassed(Exception):
    """The job went back to the queue: its worker runs another collection's job now."""


@dataclass
class RunningJob:
    """A job a worker holds: what its handler reads and reports."""

    id: int
    kind: str
    collection_id: int | None
    space_id: int | None
    params: dict[str, Any]
    settings: Settings
    connect: Connect
    attempts: int = 1
    worker: str = ""  # the name of the worker holding it (each of a process's has its own)
    cancelled: bool = False
    lost: bool = False
    pending: dict[str, int] = field(default_factory=lambda: dict(NO_PROGRESS))
    # the worker's: another collection's waiting job, taken as this one goes back to the queue
    passing: Callable[[], Awaitable[RunningJob | None]] | None = None
    successor: RunningJob | None = None
    turn_started: float = field(default_factory=time.monotonic)

    def will_resume(self, failure: Exception) -> bool:
        """Whether this failure leaves the job to be taken again (not past MAX_ATTEMPTS)."""
        return resumes(failure) and self.attempts < MAX_ATTEMPTS

    def check(self) -> None:
        """Raise JobStopped when the job should stop."""
        if self.cancelled or self.lost:
            raise JobStopped()

    async def take_turns(self) -> None:
        """Between two of its items: past its turn (RAG_JOB_TURN_SECONDS), the job gives
        its worker to another collection's waiting job, if one waits (JobPassed), and
        waits in the queue in its collection's place; else its turn starts again."""
        if time.monotonic() - self.turn_started < self.settings.job_turn_seconds:
            return
        self.turn_started = time.monotonic()
        await self.give_way()

    async def give_way(self) -> None:
        """Give the worker to another collection's waiting job whose turn comes no later
        (JobPassed), if one waits; else go on."""
        if self.passing is None:
            return
        try:
            self.successor = await self.passing()
        except (psycopg.Error, RagError, OSError) as error:  # the job goes on where it is
            log.warning("job %s: cannot pass its turn: %s", self.id, error)
            return
        if self.successor is not None:
            raise JobPassed()

    async def hold(self, conn: AsyncConnection) -> None:
        """Lock the job's row for the transaction, its lease renewed; raise JobStopped if
        it was cancelled or another worker holds it now."""
        params = {"job": self.id, "worker": self.worker,
                  "lease": self.settings.job_lease_seconds}  # fmt: skip
        cursor = await conn.execute(queries("jobs").hold_job, params)
        row = await cursor.fetchone()
        self.lost = self.lost or row is None
        self.cancelled = self.cancelled or bool(row and row[0])
        self.check()

    def count(self, **deltas: int) -> None:
        for name, value in deltas.items():
            self.pending[name] += value

    def taken(self) -> dict[str, int]:
        """The counts not yet written, taken to be written (``count`` them back if not)."""
        deltas, self.pending = self.pending, dict(NO_PROGRESS)
        return deltas

    async def flush(self, conn: AsyncConnection) -> None:
        deltas = self.taken()
        if not any(deltas.values()):
            return
        try:
            await conn.execute(queries("jobs").add_progress, {"job": self.id, **deltas})
        except BaseException:
            self.count(**deltas)  # not written: the next flush writes them
            raise


Handler = Callable[[RunningJob], Awaitable[None]]


def failure_message(failure: Exception) -> str:
    """What a job's reader is told of an error (the log has the rest)."""
    if isinstance(failure, RagError):  # a code (search_timeout) says its words in extra
        said = failure.extra.get("message") or failure.extra.get("detail")
        return str(said) if said else failure.message
    if isinstance(failure, psycopg.Error):
        return from_database_error(failure).message
    return UNEXPECTED


def _driver_error(failure: Exception) -> Exception:
    """The driver's error behind one of ours (the supervisor translates them)."""
    cause = failure.__cause__ if isinstance(failure, RagError) else None
    return cause if isinstance(cause, psycopg.Error) else failure


def resumes(failure: Exception) -> bool:
    """A lost connection or database (the supervisor's ConnectionLost, or the driver's
    error under it), a broken network, or a failure that passes (app/errors.py passing):
    the job is taken again when its lease runs out. Any other error fails it (in an
    ingest, the item it met)."""
    if isinstance(failure, ConnectionLost | ConnectionError):
        return True
    error = _driver_error(failure)
    return isinstance(error, psycopg.Error) and (connection_lost(error) or passing(error))


async def _set_within(event: asyncio.Event, seconds: float) -> bool:
    """Whether `event` is set within `seconds`."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)
    return event.is_set()


class JobWorkers:
    def __init__(
        self, settings: Settings, connect: Connect, handlers: dict[str, Handler],
        share: Share | None = None,
    ) -> None:  # fmt: skip
        self.settings = settings
        self.connect = connect
        self.handlers = handlers
        self.share = share
        self.name = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._tasks: list[asyncio.Task[None]] = []
        self._wake = asyncio.Event()

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._loop(n)) for n in range(self.settings.job_workers)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    def notify(self) -> None:
        """A job was queued: wake an idle worker now rather than at its next poll."""
        self._wake.set()

    async def _loop(self, number: int) -> None:
        while True:
            try:
                job = await self._claim(f"{self.name}/{number}")
            except (psycopg.Error, RagError, OSError) as error:
                log.warning("job worker %s: cannot read the queue: %s", number, error)
                job = None
            if job is None:
                await _set_within(self._wake, IDLE_POLL)
                self._wake.clear()
                continue
            while job is not None:
                job = await self._run_logged(number, job)

    async def _run_logged(self, number: int, job: RunningJob) -> RunningJob | None:
        try:
            return await self._run(job)  # the job that took its turn, if it passed
        except Exception:  # its end not written (the database went): its lease runs out
            log.exception("job worker %s: job %s not finished", number, job.id)
            return None

    async def _claim(self, worker: str) -> RunningJob | None:
        params = {"worker": worker, "lease": self.settings.job_lease_seconds, "passing": None}
        async with self.connect() as conn, conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(queries("jobs").claim_job, params)
            row = await cursor.fetchone()
        return None if row is None else await self._job_from(row, worker)

    async def _pass(self, job: RunningJob) -> RunningJob | None:
        """Another collection's waiting job for this worker, taken in the transaction that
        puts ``job`` back in the queue; None (and ``job`` kept) if none waits whose turn
        comes no later than its own, or if ``job``'s cancel was asked."""
        q = queries("jobs")
        params = {"worker": job.worker, "lease": self.settings.job_lease_seconds,
                  "passing": job.id, "job": job.id}  # fmt: skip
        row = None
        async with self.connect() as conn:
            await job.flush(conn)
            async with conn.transaction(), conn.cursor(row_factory=dict_row) as cursor:
                await cursor.execute(q.pass_turn, params)
                if await cursor.fetchone() is not None:  # not cancelled, still this worker's
                    await cursor.execute(q.claim_job, params)
                    row = await cursor.fetchone()
                if row is None:
                    raise psycopg.Rollback()
        if row is None:
            return None
        self.notify()  # an idle worker here may take the job that passed at once
        return await self._job_from(row, job.worker)

    async def _job_from(self, row: dict[str, Any], worker: str) -> RunningJob:
        job = RunningJob(row["id"], row["kind"], row["collection_id"], row["space_id"],
                         row["params"], self.settings, self.connect,
                         attempts=row["attempts"], worker=worker)  # fmt: skip
        if job.collection_id is not None:  # a re-embed (an admin's) runs to its end
            job.passing = partial(self._pass, job)
        job.connect = await self._connect_for(job)
        return job

    async def _connect_for(self, job: RunningJob) -> Connect:
        """How a job's handler connects: within its collection's share of the pool, as its
        requests do (app/api/shares.py), so a tenant's job and searches together leave
        connections for the others (before, a job's connection came on top of the share,
        and one job with the tenant's searches held the whole pool)."""
        if self.share is None or job.collection_id is None:
            return self.connect
        try:
            async with self.connect() as conn:
                cursor = await conn.execute(queries("jobs").collection_name,
                                            {"id": job.collection_id})  # fmt: skip
                row = await cursor.fetchone()
        except (psycopg.Error, RagError, OSError):  # the job is held: run it, if unshared
            return self.connect
        if row is None:
            return self.connect
        name, connect = str(row[0]), self.connect

        @contextlib.asynccontextmanager
        async def shared() -> AsyncIterator[AsyncConnection]:
            async with contextlib.AsyncExitStack() as held:
                await self._share_slot(held, job, name)
                yield await held.enter_async_context(connect())

        return shared

    async def _share_slot(
        self, held: contextlib.AsyncExitStack, job: RunningJob, collection: str
    ) -> None:
        """A slot of the collection's share, however long its own requests hold them all;
        every RAG_JOB_TURN_SECONDS of waiting the job gives its worker to another
        collection's waiting job, if one waits (before, it held the worker waiting, and a
        tenant whose writes held every slot of its collection stalled every worker)."""
        assert self.share is not None
        while True:
            try:
                await held.enter_async_context(
                    self.share(collection, self.settings.job_turn_seconds)
                )
                return
            except Throttled:
                job.check()  # a cancel asked meanwhile ends it here
                await job.give_way()

    async def _heartbeat(self, job: RunningJob, finished: asyncio.Event) -> None:
        """Until the job's handler returns: its progress written, its lease renewed and
        its cancel read. Stopped by `finished`, never cancelled mid-write (counts taken
        for a write that was cut off would be lost)."""
        params = {"job": job.id, "worker": job.worker, "lease": self.settings.job_lease_seconds}
        every = min(REPORT_EVERY, self.settings.job_lease_seconds / 3)
        while not await _set_within(finished, every):
            deltas = job.taken()
            try:
                written = await self._beat(job, params, deltas)
            except BaseException as error:
                job.count(**deltas)  # written at a later beat, or when the job ends
                if not isinstance(error, psycopg.Error | RagError | OSError):
                    raise
                log.warning("job %s: cannot renew its lease: %s", job.id, error)
                continue
            if not written:
                job.count(**deltas)

    async def _beat(self, job: RunningJob, params: dict[str, Any], deltas: dict[str, int]) -> bool:
        """The lease renewed and the counts written in one transaction, unless an item
        being stored holds the job's row (whether they were written)."""
        async with self.connect() as conn, conn.transaction():
            cursor = await conn.execute(queries("jobs").renew_lease, params)
            row = await cursor.fetchone()
            held, renewed, cancel = row if row else (False, False, False)
            if renewed and any(deltas.values()):
                await conn.execute(queries("jobs").add_progress, {"job": job.id, **deltas})
        job.lost = job.lost or not held
        job.cancelled = job.cancelled or cancel
        return bool(renewed)

    async def _run(self, job: RunningJob) -> RunningJob | None:
        """Run ``job`` to its end; if it passed its turn, the job its worker took."""
        log.info("job %s (%s) started by %s", job.id, job.kind, job.worker)
        finished = asyncio.Event()
        heartbeat = asyncio.create_task(self._heartbeat(job, finished))
        status, error = "done", None
        try:
            await self.handlers[job.kind](job)
        except JobStopped:
            status = "cancelled"
        except JobPassed:
            assert job.successor is not None
            log.info("job %s passed its turn to job %s", job.id, job.successor.id)
        except Exception as failure:
            if job.will_resume(failure):
                log.warning("job %s stopped (%s); it resumes when its lease runs out",
                            job.id, failure)  # fmt: skip
                return None
            if not isinstance(failure, RagError):
                log.exception("job %s failed", job.id)
            status, error = "failed", failure_message(failure)
        finally:
            finished.set()
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(heartbeat, self.settings.job_lease_seconds)
        if job.successor is not None:  # back in the queue: its counts written, if they can be
            with contextlib.suppress(psycopg.Error, RagError, OSError):
                async with self.connect() as conn:
                    await job.flush(conn)
            return job.successor
        if job.lost:  # another worker holds it now
            return None
        async with self.connect() as conn:
            await job.flush(conn)
            await conn.execute(queries("jobs").finish_job,
                               {"job": job.id, "status": status, "error": error})  # fmt: skip
        log.info("job %s %s", job.id, status)
        return None
