"""What routes get from the application: settings, a pooled connection (or, for work on a
collection, a lease that takes one within the caller's share), the caller's access, and
the request body (read once, with a size limit)."""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from functools import partial
from typing import Annotated, Any

from fastapi import Header, Request
from psycopg import AsyncConnection
from starlette.requests import ClientDisconnect

from app.api.params import refuse_unknown_query
from app.api.shares import Shares
from app.auth import Access, Scope, check_access
from app.db.connect import Connect
from app.db.replicas import PRIMARY, ReplicaSet
from app.errors import (
    BadRequest,
    ClientClosedRequest,
    PayloadTooLarge,
    Unavailable,
    UnsupportedMediaType,
    worker_unavailable,
)
from app.settings import Settings


async def get_settings(request: Request) -> Settings:
    """The service's settings (a coroutine: FastAPI would run a plain function in its
    thread pool, a hand-off costing more than the look-up on every request)."""
    settings: Settings = request.app.state.settings
    return settings


async def db(request: Request) -> AsyncIterator[AsyncConnection]:
    """A connection to the primary (writes, and reads that must see them), within a slot
    of the caller's key (work on no one collection; a collection's takes a Lease)."""
    async with _key_slot(request), request.app.state.database.connection() as conn:
        yield conn


def _key_slot(request: Request) -> AbstractAsyncContextManager[None]:
    """A slot of the caller's key (app/api/shares.py): however many listings one key
    sends, a connection stays free for the others. The key is the one the route's own
    dependency checked (each route checks its scope before its connection)."""
    access: Access | None = getattr(request.state, "access", None)
    if access is None:
        access = _checked(request, Scope.READ)
    shares: Shares = request.app.state.shares
    return shares.hold_key(access.key)


def _checked(request: Request, scope: Scope) -> Access:
    """The caller's access for ``scope`` (else 401/403), kept for the request's slots."""
    settings: Settings = request.app.state.settings
    access = check_access(settings, request.headers.get("authorization"), scope)
    request.state.access = access
    return access


ConsistencyHeader = Annotated[
    str | None,
    Header(
        alias="X-Consistency",
        json_schema_extra={"enum": ["replica", "primary"]},
        description="replica (default): a read replica in rotation may answer (lag at most "
        "RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary.",
    ),
]


async def read_db(
    request: Request, consistency: ConsistencyHeader = None
) -> AsyncIterator[AsyncConnection]:
    """A connection for a read: a replica in rotation (app/db/replicas.py), or the primary
    when there is none or the request says ``X-Consistency: primary``; within a slot of
    the caller's key, as ``db``."""
    async with _key_slot(request), _read_connection(request, consistency) as conn:
        yield conn


@asynccontextmanager
async def _read_connection(
    request: Request, consistency: str | None
) -> AsyncIterator[AsyncConnection]:
    wanted = "replica" if consistency is None else consistency
    if wanted not in ("primary", "replica"):
        raise BadRequest("the X-Consistency header must be primary or replica",
                         field="X-Consistency")  # fmt: skip
    replicas: ReplicaSet = request.app.state.replicas
    if wanted == "replica":
        async with replicas.lend() as lent:
            if lent is not None:
                yield lent[1]
                return
    replicas.reads[PRIMARY] += 1
    async with request.app.state.database.connection() as conn:
        yield conn


class Lease:
    """Connections for one request's work on a collection, each taken within the caller's
    share of the pool (app/api/shares.py): the route names the collection once it has
    read it, and the connection is taken then."""

    def __init__(self, request: Request, read: bool, consistency: str | None = None) -> None:
        self.request = request
        self.read = read
        self.consistency = consistency

    @asynccontextmanager
    async def connection(self, access: Access, collection: str) -> AsyncIterator[AsyncConnection]:
        """A connection for ``collection``, if ``access`` may use it (else 403)."""
        async with self.held(access, collection) as connect, connect() as conn:
            yield conn

    @asynccontextmanager
    async def held(self, access: Access, collection: str) -> AsyncIterator[Connect]:
        """The caller's slots for ``collection`` (403 if ``access`` may not use it) for the
        block, and connections taken within them as the work needs them: work that waits
        on an embedder between its statements holds no connection meanwhile."""
        shares: Shares = self.request.app.state.shares
        async with shares.hold(access.key, access.collection(collection)):
            yield partial(self._connect, collection)

    @asynccontextmanager
    async def _connect(self, collection: str) -> AsyncIterator[AsyncConnection]:
        try:
            if self.read:
                async with _read_connection(self.request, self.consistency) as conn:
                    yield conn
            else:
                async with self.request.app.state.database.connection() as conn:
                    yield conn
        except Unavailable as error:
            worker = error.extra.get("unreachable")
            if worker is None:
                raise
            raise worker_unavailable(worker, collection) from error


async def reads(request: Request, consistency: ConsistencyHeader = None) -> Lease:
    """Reads on a collection: a replica in rotation, or the primary (see read_db)."""
    return Lease(request, read=True, consistency=consistency)


async def writes(request: Request) -> Lease:
    """Writes on a collection: the primary."""
    return Lease(request, read=False)


def authorize(scope: Scope) -> Callable[[Request], Coroutine[Any, Any, Access]]:
    """A dependency: the caller's access, if its key allows ``scope`` (else 401/403)."""

    async def dependency(request: Request) -> Access:
        access = _checked(request, scope)
        refuse_unknown_query(request)  # after the key: a caller without one learns nothing
        return access

    return dependency


def _is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


async def body_bytes(request: Request) -> bytes:
    """A body other than a document's (a search, an explain, signals, a space, a profile,
    a goal, a collection): at most RAG_MAX_SEARCH_BODY_BYTES."""
    return await _read_body(request, "max_search_body_bytes")


async def document_body(request: Request) -> AsyncIterator[bytes]:
    """A document with its chunks: at most RAG_MAX_BODY_BYTES, and held (with what is
    made of it) within the service's RAG_INGEST_BODIES_MAX_BYTES until the request ends."""
    budget: BodyBudget = request.app.state.body_budget
    with budget.holding() as take:
        yield await _read_body(request, "max_body_bytes", take)


class BodyBudget:
    """The bytes of document bodies the service holds at once. A body that would pass the
    limit is refused (503 with Retry-After) as soon as the bytes read so far say so: a few
    large documents at once cannot take the memory of the machine. Only bytes received
    count (a declared Content-Length is a promise: a client trickling a body that declares
    64 MiB held the whole budget, and every tenant's writes were refused)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    @contextmanager
    def holding(self) -> Iterator[Callable[[int], None]]:
        taken = 0

        def take(size: int) -> None:
            nonlocal taken
            if self.held + size > self.limit:
                raise Unavailable(
                    "the service is holding as many document bytes as it may "
                    f"(RAG_INGEST_BODIES_MAX_BYTES, {self.limit}); retry shortly",
                    retry_after=2,
                )
            self.held += size
            taken += size

        try:
            yield take
        finally:
            self.held -= taken


async def _read_body(
    request: Request, setting: str, take: Callable[[int], None] | None = None
) -> bytes:
    """The body, read as it arrives and refused (413) as soon as it passes the limit the
    setting names (before reading anything, when Content-Length says so), chunked or not;
    it must be declared JSON (415 otherwise). ``take`` is told each size held."""
    if not _is_json(request.headers.get("content-type")):
        raise UnsupportedMediaType(
            "the request body must be JSON: send Content-Type: application/json"
        )
    limit: int = getattr(request.app.state.settings, setting)
    too_large = PayloadTooLarge(
        f"request body is larger than {limit} bytes (RAG_{setting.upper()})",
        limit=limit, setting=f"RAG_{setting.upper()}",
    )  # fmt: skip
    declared = request.headers.get("content-length")
    expected = int(declared) if declared and declared.isdigit() else None
    if expected is not None and expected > limit:
        raise too_large
    parts: list[bytes] = []
    size = 0
    try:
        async for part in request.stream():
            size += len(part)
            if size > limit:
                raise too_large
            if take is not None:
                take(len(part))
            parts.append(part)
    except ClientDisconnect:  # gone mid-body, or dropped for stalling (app/api/protocol.py)
        raise ClientClosedRequest() from None
    # a byte order mark (some Windows tools write one) may be ignored, as RFC 8259 allows
    return b"".join(parts).removeprefix(codecs.BOM_UTF8)


async def shared_writer(request: Request) -> Access:
    """A dependency for changes to what every collection shares (spaces, profiles, goals,
    the collections themselves): an unrestricted write key."""
    access = _checked(request, Scope.WRITE)
    access.shared()
    refuse_unknown_query(request)
    return access
