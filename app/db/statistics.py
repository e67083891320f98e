"""Planner statistics after API writes: a collection whose chunk count has moved far
enough since its last ANALYZE is analyzed again, in the background, instead of waiting
for autovacuum (the rule and the ANALYZE are in sql/functions/statistics.sql).

Writes only mark their collection; one task per service works through the marked ones,
then waits ``PAUSE`` seconds, so a load of many small requests costs one cheap check a
second, and an ANALYZE each time the count has grown by half (by default)."""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

import psycopg

from app.db.connect import Connect
from app.db.sqlfiles import queries
from app.errors import RagError
from app.settings import Settings

log = logging.getLogger("ragsearch")

PAUSE = 1.0  # seconds between two rounds of checks


class StatisticsKeeper:
    def __init__(self, settings: Settings, connect: Connect) -> None:
        self.settings = settings
        self.connect = connect
        self._marked: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def written(self, collection: str) -> None:
        """A write to ``collection`` committed."""
        self._marked.add(collection)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._work())

    async def _work(self) -> None:
        while self._marked:
            marked, self._marked = self._marked, set()
            for collection in sorted(marked):
                await self._refresh(collection)
            await asyncio.sleep(PAUSE)

    async def _refresh(self, collection: str) -> None:
        params = {"name": collection, "min_change": self.settings.analyze_min_change,
                  "ratio": self.settings.analyze_change_ratio}  # fmt: skip
        try:
            async with self.connect() as conn:
                cursor = await conn.execute(queries("collections").refresh_statistics, params)
                analyzed = any(row[0] for row in await cursor.fetchall())
        except (psycopg.Error, RagError) as error:  # the supervisor deals with outages
            log.debug("statistics of %s not refreshed: %s", collection, error)
            return
        if analyzed:
            log.info("analyzed collection %s after writes", collection)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
