"""What routes get from the application: settings, a pooled connection, the caller's
access, and the request body (read once, with a size limit)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from fastapi import Request
from psycopg import AsyncConnection

from app.auth import Access, Scope, check_access
from app.db.pool import connection
from app.errors import PayloadTooLarge
from app.settings import Settings


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def db(request: Request) -> AsyncIterator[AsyncConnection]:
    async with connection(request.app.state.pool) as conn:
        yield conn


def authorize(scope: Scope) -> Callable[[Request], Coroutine[Any, Any, Access]]:
    """A dependency: the caller's access, if its key allows ``scope`` (else 401/403)."""

    async def dependency(request: Request) -> Access:
        return check_access(request.app.state.settings, request.headers.get("authorization"), scope)

    return dependency


async def body_bytes(request: Request) -> bytes:
    limit = request.app.state.settings.max_body_bytes
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"request body is larger than {limit} bytes (RAG_MAX_BODY_BYTES)")
    body = await request.body()
    if len(body) > limit:
        raise PayloadTooLarge(f"request body is larger than {limit} bytes (RAG_MAX_BODY_BYTES)")
    return body


async def shared_writer(request: Request) -> Access:
    """A dependency for changes to what every collection shares (spaces, profiles, goals,
    the collections themselves): an unrestricted write key."""
    access = check_access(
        request.app.state.settings, request.headers.get("authorization"), Scope.WRITE
    )
    access.shared()
    return access
