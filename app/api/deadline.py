"""Every request is answered within RAG_REQUEST_TIMEOUT seconds of its last input.

A database that hangs (its processes stopped, a disk that does not answer) never returns
an error: without a bound of our own a request would wait for it as long as it hangs.
The request runs in a task of its own; when the deadline passes before it has started
its answer, the client gets 504 at once and the task is cancelled and left to finish its
clean-up in the background (the driver's attempt to cancel the query may itself wait for
the hung server). The supervisor is told, so that it checks the database now.

The clock restarts whenever part of the body arrives, so a slow upload is bounded by
RAG_BODY_TIMEOUT between parts, not by this deadline. A 504 from here promises nothing
about the work already sent to the database: a write may still commit (every write is
an idempotent upsert, so sending it again is safe).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.responses import ORJSONResponse
from app.errors import GatewayTimeout


class RequestDeadline:
    def __init__(self, app: ASGIApp, seconds: float, on_expiry: Callable[[], None]) -> None:
        self.app = app
        self.seconds = seconds
        self.on_expiry = on_expiry
        self._abandoned: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = time.monotonic() + self.seconds
        started = False
        abandoned = False

        async def receive_and_restart() -> Message:
            nonlocal deadline
            message = await receive()
            deadline = time.monotonic() + self.seconds
            return message

        async def send_unless_abandoned(message: Message) -> None:
            nonlocal started
            if abandoned:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        task = asyncio.ensure_future(self.app(scope, receive_and_restart, send_unless_abandoned))
        try:
            while not task.done() and (started or time.monotonic() < deadline):
                await asyncio.wait({task}, timeout=None if started else deadline - time.monotonic())
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task.done():
            task.result()  # the app's own exception, if it raised
            return
        abandoned = True
        self._abandon(task)
        await self._answer_timeout(scope, receive, send)

    def _abandon(self, task: asyncio.Task[None]) -> None:
        task.cancel()
        self._abandoned.add(task)
        task.add_done_callback(self._forget)
        self.on_expiry()

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._abandoned.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: no "exception was never retrieved" at exit

    async def _answer_timeout(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = GatewayTimeout(
            "request_timeout",
            message=f"no answer within RAG_REQUEST_TIMEOUT ({self.seconds:g} s): the "
            "database did not respond in time; retry later",
        )
        scope.setdefault("state", {})["error_kind"] = error.kind
        await ORJSONResponse(error.body(), status_code=error.status)(scope, receive, send)
