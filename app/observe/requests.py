"""One pass around every request: its id (the client's ``X-Request-ID`` when it is a
sane token, else a new one; echoed in the response), its latency and status in the
metrics, one log line, and the slow-search log. Pure ASGI, so that streaming bodies and
the hot path pay no extra task or copy."""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import KIND_OF_STATUS
from app.observe.metrics import Metrics

log = logging.getLogger("ragsearch.request")
slow_log = logging.getLogger("ragsearch.slow_search")
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
UNMATCHED = "unmatched"  # the route label of a path no route serves (keeps labels few)


def request_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = bytes(value).decode("latin-1")
            if REQUEST_ID.fullmatch(text):
                return text
    return uuid.uuid4().hex


def route_of(scope: Scope) -> str:
    route = scope.get("route")
    return str(getattr(route, "path", UNMATCHED)) if route is not None else UNMATCHED


class RequestObserver:
    def __init__(self, app: ASGIApp, metrics: Metrics, access_log: bool,
                 slow_search_ms: float) -> None:  # fmt: skip
        self.app = app
        self.metrics = metrics
        self.access_log = access_log
        self.slow_search_ms = slow_search_ms

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = request_id(scope)
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = rid
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)["X-Request-ID"] = rid
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self._record(scope, state, status, time.perf_counter() - started)

    def _record(self, scope: Scope, state: dict[str, Any], status: int, seconds: float) -> None:
        route = route_of(scope)
        self.metrics.observe_request(route, scope["method"], status, seconds)
        search = state.get("search_metadata")
        if search is not None:
            self.metrics.observe_search(search)
        if (chunks := state.get("ingested_chunks")) is not None:
            self.metrics.ingested.inc(chunks)
        if status >= 500:
            kind = state.get("error_kind") or KIND_OF_STATUS.get(status, "internal")
            self.metrics.errors.labels(kind).inc()
        fields = {"request_id": state["request_id"], "method": scope["method"], "route": route,
                  "status": status, "duration_ms": round(seconds * 1000, 3)}  # fmt: skip
        if search is not None:
            fields["strategy"] = search.get("strategy")
        if self.access_log:
            log.info("%s %s %s", scope["method"], route, status, extra=fields)
        if search is not None and seconds * 1000 >= self.slow_search_ms:
            slow_log.warning("slow search: %.1f ms", seconds * 1000,
                             extra={**fields, "query_metadata": search})  # fmt: skip
