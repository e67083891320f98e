"""Reading a multipart upload as it arrives: refused (413) as soon as it passes
RAG_MAX_UPLOAD_BYTES (before anything is read, when Content-Length says so); its files
spooled to temporary files past 1 MiB each (memory stays bounded), removed when the
request ends."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Request
from starlette.datastructures import FormData
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import ClientDisconnect

from app.errors import BadRequest, ClientClosedRequest, PayloadTooLarge, UnsupportedMediaType
from app.settings import Settings

MAX_FILES = 10_000


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"the upload is larger than {limit} bytes (RAG_MAX_UPLOAD_BYTES)",
                           limit=limit, setting="RAG_MAX_UPLOAD_BYTES")  # fmt: skip


async def _counted(request: Request, limit: int) -> AsyncGenerator[bytes, None]:
    size = 0
    try:
        async for part in request.stream():
            size += len(part)
            if size > limit:
                raise _too_large(limit)
            yield part
    except ClientDisconnect:
        raise ClientClosedRequest() from None


@asynccontextmanager
async def read_upload(request: Request, settings: Settings) -> AsyncIterator[FormData]:
    media = (request.headers.get("content-type") or "").split(";", 1)[0].strip().lower()
    if media != "multipart/form-data":
        raise UnsupportedMediaType("an upload must be multipart/form-data (files in 'files')")
    limit = settings.max_upload_bytes
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    parser = MultiPartParser(request.headers, _counted(request, limit), max_files=MAX_FILES,
                             max_fields=100)  # fmt: skip
    try:
        form = await parser.parse()
    except MultiPartException as error:
        raise BadRequest(f"the multipart body cannot be read: {error.message}") from None
    try:
        yield form
    finally:
        await form.close()
