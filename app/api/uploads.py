"""Reading a multipart upload as it arrives: refused (413) as soon as it passes
RAG_MAX_UPLOAD_BYTES (before anything is read, when Content-Length says so); its files
spooled to temporary files past 1 MiB each (memory stays bounded), removed when the
request ends; zip archives read member by member (app/ingest/archive.py)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial

from fastapi import Request
from starlette.datastructures import FormData, UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import ClientDisconnect

from app.api.params import unknown_name
from app.errors import BadRequest, ClientClosedRequest, PayloadTooLarge, UnsupportedMediaType
from app.ingest.archive import PIECE, Unpacked, members, too_many_files
from app.settings import Settings
from app.text.formats import type_of_file


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
    most = settings.max_upload_files
    parser = MultiPartParser(request.headers, _counted(request, limit), max_files=most,
                             max_fields=100)  # fmt: skip
    try:
        form = await parser.parse()
    except MultiPartException as error:
        if error.message.startswith("Too many files"):
            raise too_many_files(settings, "this one holds more") from None
        raise BadRequest(f"the multipart body cannot be read: {error.message}") from None
    try:
        yield form
    finally:
        await form.close()


FORM_FIELDS = ("files", "options")


def known_fields_only(form: FormData) -> None:
    """A form field the upload does not read is refused by name (a ``collection`` field
    would otherwise leave the files in the default collection)."""
    unknown = sorted(set(form.keys()) - set(FORM_FIELDS))
    if unknown:
        hint = "; give the collection as ?collection=" if unknown[0] == "collection" else ""
        raise unknown_name("form field", unknown[0], FORM_FIELDS, hint)


@dataclass(frozen=True)
class Entry:
    """One file of an upload (or of a zip archive in it): its name, type, size (as sent,
    or as the archive declares it) and its bytes, read as they are wanted."""

    name: str
    kind: str
    size: int
    read: Callable[[], AsyncIterator[bytes]]


async def _upload_bytes(upload: UploadFile) -> AsyncIterator[bytes]:
    await upload.seek(0)
    while piece := await upload.read(PIECE):
        yield piece


def _archive_entries(upload: UploadFile, name: str, settings: Settings) -> list[Entry]:
    archive, found = members(upload.file, name, settings)
    unpacked = Unpacked(name, settings)
    return [Entry(m.name, m.kind, m.size, partial(unpacked.read, archive, m)) for m in found]


def entries(uploads: list[UploadFile], settings: Settings) -> list[Entry]:
    """Every file with its type, a zip archive's members in its place; 415 for a type the
    service does not read, 413 for a file past RAG_MAX_FILE_BYTES, before anything is done."""
    if not uploads:
        raise BadRequest("files: send one or more files (multipart/form-data)", field="files")
    found: list[Entry] = []
    for upload in uploads:
        name = (upload.filename or "").strip()
        if not name:
            raise BadRequest("files: every file needs a file name", field="files")
        if name.lower().endswith(".zip"):
            found += _archive_entries(upload, name, settings)
            continue
        if (upload.size or 0) > settings.max_file_bytes:
            raise PayloadTooLarge(
                f"{name}: larger than {settings.max_file_bytes} bytes (RAG_MAX_FILE_BYTES)",
                file=name, limit=settings.max_file_bytes, setting="RAG_MAX_FILE_BYTES",
            )  # fmt: skip
        kind = type_of_file(name, upload.content_type)
        found.append(Entry(name, kind, upload.size or 0, partial(_upload_bytes, upload)))
    if len(found) > settings.max_upload_files:
        raise too_many_files(settings, f"this one holds {len(found):,}")
    _each_name_once(found)
    return found


def _each_name_once(found: list[Entry]) -> None:
    """A file names its document: two of one name would leave the last alone stored, each
    reported stored."""
    seen: set[str] = set()
    for entry in found:
        if entry.name in seen:
            raise BadRequest(f"files: {entry.name!r} is sent twice (a file's name is its "
                             "document's id: send each name once)", field="files")  # fmt: skip
        seen.add(entry.name)
