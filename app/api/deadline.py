"""No request waits on a hung database.

A database that hangs (its processes stopped, a disk that does not answer) returns no
error: a request would wait for it as long as it hangs. So every request runs in a task
of its own, and is answered without it (the task is cancelled and left to finish its
clean-up in the background; the driver's attempt to cancel the query may itself wait for
the hung server) when, before it has started its answer,

* the supervisor finds the database down (503 with Retry-After, as every request gets
  until the database is back), or
* RAG_REQUEST_TIMEOUT seconds pass after its last input (504 ``request_timeout``; the
  supervisor is told, so that it checks the database now). The clock restarts whenever
  part of the body arrives: a slow upload is bounded by RAG_BODY_TIMEOUT between parts.

Either answer promises nothing about the work already sent to the database: a write may
still commit (every write is an idempotent upsert, so sending it again is safe).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.responses import error_response
from app.errors import GatewayTimeout, RagError, Unavailable


class RequestDeadline:
    def __init__(
        self, app: ASGIApp, seconds: float, outage: Callable[[], asyncio.Future[None] | None],
        on_expiry: Callable[[], None],
    ) -> None:  # fmt: skip
        self.app = app
        self.seconds = seconds
        self.outage = outage
        self.on_expiry = on_expiry
        self._abandoned: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = time.monotonic() + self.seconds
        started = abandoned = False

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
        outage = self.outage()
        try:
            while not task.done():
                if started:  # the answer is on its way: let it finish
                    await asyncio.wait({task})
                    break
                if time.monotonic() >= deadline or (outage is not None and outage.done()):
                    break
                waits = {task} if outage is None else {task, outage}
                await asyncio.wait(waits, timeout=deadline - time.monotonic(),
                                   return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task.done():
            task.result()  # the app's own exception, if it raised
            return
        abandoned = True
        error = self._abandon(task, outage is not None and outage.done())
        scope.setdefault("state", {})["error_kind"] = error.kind
        await error_response(error)(scope, receive, send)

    def _abandon(self, task: asyncio.Task[None], outage: bool) -> RagError:
        task.cancel()
        self._abandoned.add(task)
        task.add_done_callback(self._forget)
        if outage:
            return Unavailable("the database stopped answering; retry shortly", retry_after=2)
        self.on_expiry()
        return GatewayTimeout(
            "request_timeout",
            message=f"no answer within RAG_REQUEST_TIMEOUT ({self.seconds:g} s): the "
            "database did not respond in time; retry later",
        )

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._abandoned.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: no "exception was never retrieved" at exit
