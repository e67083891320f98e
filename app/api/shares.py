"""Each tenant's share of the database connections.

The pool is shared by every key and every collection: without a bound, one key (or
several keys on one collection) sending costly searches faster than they finish holds
every connection, and another tenant's small search waits behind them until it gets 503.
So a request that works on a collection first takes a slot of its key
(RAG_KEY_CONCURRENCY) and of its collection (RAG_COLLECTION_CONCURRENCY), both below the
pool size by default: whoever floods, a connection stays free for the others. A request
that finds its key's or its collection's slots all taken waits for one as long as it
would wait for a connection (RAG_POOL_TIMEOUT), then gets 429 with Retry-After. Work on
no one collection (jobs, collections, spaces, profiles, goals, examples, search defaults)
takes a slot of its key alone. A write's slots stay held while its embedder works, its
connection does not (app/db/connect.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field

from app.errors import Throttled


@dataclass
class _Slots:
    semaphore: asyncio.Semaphore
    users: int = 0  # holding or waiting; the entry goes when it falls to 0


@dataclass
class Shares:
    per_key: int
    per_collection: int
    wait: float  # seconds
    _slots: dict[tuple[str, str], _Slots] = field(default_factory=dict)

    @asynccontextmanager
    async def for_job(self, collection: str, wait: float | None = None) -> AsyncIterator[None]:
        """A job's connection: a slot of ``collection`` and one of its jobs' own slots (one
        fewer than the collection's, at least one): its jobs never hold every slot while
        its searches wait. Waited for ``wait`` seconds (None: as long as it takes), then
        Throttled (the worker may give its turn away meanwhile: app/jobs/worker.py)."""
        deadline = None if wait is None else asyncio.get_running_loop().time() + wait
        async with self._slot(("jobs", collection), deadline), \
                self._slot(("collection", collection), deadline):  # fmt: skip
            yield

    @asynccontextmanager
    async def hold(self, key: str | None, collection: str) -> AsyncIterator[None]:
        """A slot of ``key`` (None: open mode, no key) and one of ``collection``, for the
        duration of the block (else 429)."""
        deadline = asyncio.get_running_loop().time() + self.wait
        async with self._key(key, deadline), self._slot(("collection", collection), deadline):
            yield

    @asynccontextmanager
    async def hold_key(self, key: str | None) -> AsyncIterator[None]:
        """A slot of ``key`` alone, for work on no one collection."""
        async with self._key(key, asyncio.get_running_loop().time() + self.wait):
            yield

    @asynccontextmanager
    async def _key(self, key: str | None, deadline: float) -> AsyncIterator[None]:
        async with AsyncExitStack() as held:
            if key is not None:
                await held.enter_async_context(self._slot(("key", key), deadline))
            yield

    def _limit(self, kind: str) -> int:
        if kind == "jobs":
            return max(1, self.per_collection - 1)
        return self.per_key if kind == "key" else self.per_collection

    @asynccontextmanager
    async def _slot(self, name: tuple[str, str], deadline: float | None) -> AsyncIterator[None]:
        kind, _ = name
        slots = self._slots.setdefault(name, _Slots(asyncio.Semaphore(self._limit(kind))))
        slots.users += 1
        try:
            try:
                async with asyncio.timeout_at(deadline):
                    await slots.semaphore.acquire()
            except TimeoutError:
                raise self._refusal(kind) from None
            try:
                yield
            finally:
                slots.semaphore.release()
        finally:
            slots.users -= 1
            if slots.users == 0:
                del self._slots[name]

    def _refusal(self, kind: str) -> Throttled:
        if kind == "key":
            return Throttled(
                f"this key has {self.per_key} requests on the database already "
                "(RAG_KEY_CONCURRENCY); retry when one has finished",
                limit=self.per_key, setting="RAG_KEY_CONCURRENCY",
            )  # fmt: skip
        return Throttled(
            f"this collection has {self.per_collection} requests on the database already "
            "(RAG_COLLECTION_CONCURRENCY); retry when one has finished",
            limit=self.per_collection, setting="RAG_COLLECTION_CONCURRENCY",
        )  # fmt: skip
