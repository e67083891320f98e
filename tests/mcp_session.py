"""``ragsearch mcp`` as a subprocess, driven through the SDK's stdio client from sync
tests (tests/mcp, and tests/db where it attaches beside a running service)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Coroutine
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters


class McpSession:
    """A stdio MCP client session on a thread of its own, callable from sync tests.

    The session lives in one task (the SDK's task groups must be left where entered);
    calls run as tasks beside it."""

    def __init__(self, env: dict[str, str]) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        base = {k: v for k, v in os.environ.items() if not k.startswith("RAG_")}
        self._params = StdioServerParameters(
            command=sys.executable, args=["-m", "app.cli", "mcp"], env={**base, **env}
        )
        self._ready = threading.Event()
        self._closing: asyncio.Event | None = None
        self._client: Client | None = None
        self._session = asyncio.run_coroutine_threadsafe(self._hold(), self._loop)
        if not self._ready.wait(180):
            raise RuntimeError("the MCP server did not start")

    async def _hold(self) -> None:
        self._closing = asyncio.Event()
        async with Client(self._params, read_timeout_seconds=120) as client:
            self._client = client
            self._ready.set()
            await self._closing.wait()

    def _run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=180)

    def tools(self) -> list[Any]:
        assert self._client is not None
        return self._run(self._client.list_tools()).tools

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        assert self._client is not None
        return self._run(self._client.call_tool(name, arguments))

    def ok(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.call(name, arguments)
        assert not result.is_error, result.content
        return result.structured_content

    def close(self) -> None:
        assert self._closing is not None
        self._loop.call_soon_threadsafe(self._closing.set)
        self._session.result(timeout=60)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
