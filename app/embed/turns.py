"""Who of the callers waiting for an embedder goes next.

An embedder does a bounded number of calls at once (the local model one, an endpoint its
``concurrency``); of those waiting, a question goes first, then a request's write, then a
job's batch: a tenant's search never waits behind another's writes or jobs (before, a
write of a few texts counted as a question, and a stream of them held every tenant's
searches). With more than one call at once, writes and jobs hold at most all but one, so
a question finds a call free even while an endpoint holds every write it was sent. A call
passed over ``PASSED_OVER`` turns goes next: a steady stream of questions never holds a
write or a job for ever.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
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
        self._changed = asyncio.Condition()
        self._busy = 0
        self._waiting = [0] * RANKS
        self._passed = [0] * RANKS  # turns given to a lower rank while this one waited

    def _free(self, rank: int) -> bool:
        limit = self.calls if rank == QUESTION or self.calls == 1 else self.calls - 1
        return self._busy < limit

    def _overdue(self, rank: int) -> bool:
        return bool(self._waiting[rank]) and self._passed[rank] >= PASSED_OVER

    def _may_go(self, rank: int) -> bool:
        if not self._free(rank):
            return False
        if any(self._overdue(h) and self._free(h) for h in range(rank + 1, RANKS)):
            return False
        return not any(self._waiting[:rank]) or self._overdue(rank)

    def waiting(self) -> int:
        return sum(self._waiting)

    @asynccontextmanager
    async def turn(self, rank: int) -> AsyncIterator[None]:
        async with self._changed:
            self._waiting[rank] += 1
            try:
                await self._changed.wait_for(lambda: self._may_go(rank))
            except BaseException:  # cancelled: those it held back may go now
                self._left(rank)
                self._changed.notify_all()
                raise
            self._left(rank)
            self._busy += 1
            self._passed[rank] = 0
            for higher in range(rank + 1, RANKS):
                self._passed[higher] += bool(self._waiting[higher])
            self._changed.notify_all()  # with calls free, the next may go too
        try:
            yield
        finally:
            self._busy -= 1  # at once: a cancel while the lock is awaited loses no call
            await asyncio.shield(self._wake())

    def _left(self, rank: int) -> None:
        """A caller of ``rank`` waits no more: a rank no one waits in starts its count of
        turns passed over again."""
        self._waiting[rank] -= 1
        if not self._waiting[rank]:
            self._passed[rank] = 0

    async def _wake(self) -> None:
        async with self._changed:
            self._changed.notify_all()
