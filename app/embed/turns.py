"""Who of the callers waiting for an embedder goes next.

An embedder does a bounded number of calls at once (the local model one, an endpoint its
``concurrency``); of those waiting, a question goes first, then a request's write, then a
job's batch: a tenant's search never waits behind another's writes or jobs (before, a
write of a few texts counted as a question, and a stream of them held every tenant's
searches). With more than one call at once, writes and jobs hold at most all but one, so
a question finds a call free even while an endpoint holds every write it was sent, and one
owner's (a collection's) writes and jobs hold at most half the calls, so another
collection's write is not queued behind a stream of them (from 3 calls: with 2, half is
the one call writes may hold at all, and owners share it in turn). A call passed over
``PASSED_OVER`` turns goes next: a steady stream of questions never holds a write or a job
for ever.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

QUESTION, WRITE, BACKGROUND = 0, 1, 2  # ranks: who goes first
RANKS = 3
PASSED_OVER = 3


class Turns:
    """At most ``calls`` at once in an event loop; of those waiting, the lowest rank goes
    first, unless a higher one has been passed over PASSED_OVER times. Callers wait here,
    not in a thread."""

    def __init__(self, calls: int = 1) -> None:
        self.calls = calls
        self.owner_share = max(1, calls // 2)  # calls one owner's writes and jobs may hold
        self._changed = asyncio.Condition()
        self._busy = 0
        self._held: Counter[Hashable] = Counter()  # writes' and jobs' calls, by owner
        self._waiting: list[Counter[Hashable | None]] = [Counter() for _ in range(RANKS)]
        self._passed = [0] * RANKS  # turns given to a lower rank while this one waited

    def _free(self, rank: int, owner: Hashable | None) -> bool:
        if rank == QUESTION or self.calls == 1:
            return self._busy < self.calls
        mine = 0 if owner is None else self._held[owner]
        return self._busy < self.calls - 1 and mine < self.owner_share

    def _could_go(self, rank: int) -> bool:
        """Someone waits in ``rank`` whom no limit holds back."""
        return any(
            count and self._free(rank, owner) for owner, count in self._waiting[rank].items()
        )

    def _overdue(self, rank: int) -> bool:
        return self._passed[rank] >= PASSED_OVER and self._could_go(rank)

    def _may_go(self, rank: int, owner: Hashable | None) -> bool:
        if not self._free(rank, owner):
            return False
        if any(self._overdue(higher) for higher in range(rank + 1, RANKS)):
            return False
        return not any(self._could_go(lower) for lower in range(rank)) or self._overdue(rank)

    def waiting(self) -> int:
        return sum(sum(waiting.values()) for waiting in self._waiting)

    @asynccontextmanager
    async def turn(self, rank: int, owner: Hashable | None = None) -> AsyncIterator[None]:
        """A call's turn; ``owner``: whose write or job it serves (None: no one's share)."""
        held = owner if rank != QUESTION and owner is not None else None
        async with self._changed:
            self._waiting[rank][owner] += 1
            try:
                await self._changed.wait_for(lambda: self._may_go(rank, owner))
            except BaseException:  # cancelled: those it held back may go now
                self._left(rank, owner)
                self._changed.notify_all()
                raise
            self._left(rank, owner)
            self._taken(rank, held)
            self._changed.notify_all()  # with calls free, the next may go too
        try:
            yield
        finally:
            self._given_back(held)  # at once: a cancel while the lock is awaited loses no call
            await asyncio.shield(self._wake())

    def _taken(self, rank: int, held: Hashable | None) -> None:
        self._busy += 1
        if held is not None:
            self._held[held] += 1
        self._passed[rank] = 0
        for higher in range(rank + 1, RANKS):
            self._passed[higher] += bool(self._waiting[higher].total())

    def _given_back(self, held: Hashable | None) -> None:
        self._busy -= 1
        if held is not None:
            self._held[held] -= 1
            if not self._held[held]:
                del self._held[held]

    def _left(self, rank: int, owner: Hashable | None) -> None:
        """A caller of ``rank`` waits no more: a rank no one waits in starts its count of
        turns passed over again."""
        waiting = self._waiting[rank]
        waiting[owner] -= 1
        if not waiting[owner]:
            del waiting[owner]
        if not waiting:
            self._passed[rank] = 0

    async def _wake(self) -> None:
        async with self._changed:
            self._changed.notify_all()
