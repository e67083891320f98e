"""An AsyncClient per event loop: an httpx.AsyncClient's connections belong to the loop
that opened them, and an integration object may be used from several loops in turn
(one asyncio.run() after another)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ragsearch_client.async_client import AsyncClient


class PerLoop:
    def __init__(self, make: Callable[[], AsyncClient]) -> None:
        self._make = make
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: AsyncClient | None = None

    def get(self) -> AsyncClient:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client, self._loop = self._make(), loop
        return self._client
