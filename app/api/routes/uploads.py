"""Files in: ``POST /api/rag/documents/upload``, one or more files in a multipart body,
each read by its type into a document of its own."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic_core import from_json
from starlette.datastructures import UploadFile

from app.api.deps import Lease, authorize, get_settings, writes
from app.api.openapi import ACCESS, errors
from app.api.params import AsyncQuery, CollectionQuery
from app.api.responses import ACCEPTED, accepted
from app.api.schemas import UploadResponse
from app.api.uploads import entries, known_fields_only, read_upload
from app.auth import Access, Scope
from app.errors import BadRequest
from app.ingest.files import FileDefaults
from app.jobs.store import NewItem
from app.parts import find_collection
from app.resources.jobs import queue_ingest
from app.resources.uploads import read_files, store_files
from app.settings import Settings
from app.validation import parse_model

router = APIRouter(prefix="/api/rag/documents", tags=["documents"])

UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["files"],
                    "properties": {
                        "files": {"type": "array",
                                  "items": {"type": "string", "format": "binary"}},
                        "options": {
                            "type": "string",
                            "description": "JSON: what every document gets (doc_id_prefix, "
                            "category, tags, metadata, chunking, created_at).",
                        },
                    },
                }
            }
        },
    }
}  # fmt: skip


def _defaults(form_value: Any, collection: str) -> FileDefaults:
    if form_value is None:
        return FileDefaults(collection=collection)
    if not isinstance(form_value, str):
        raise BadRequest("options must be a JSON object (a form field, not a file)",
                         field="options")  # fmt: skip
    try:  # parsed as a JSON body is: an integer past 64 bits is kept, to be refused by name
        given = from_json(form_value.removeprefix("\ufeff"))  # a byte order mark, as a body's
    except ValueError:
        raise BadRequest("options must be a JSON object", field="options") from None
    if not isinstance(given, dict):
        raise BadRequest("options must be a JSON object", field="options")
    if "collection" in given:
        raise BadRequest("options.collection: give the collection as ?collection=",
                         field="options.collection")  # fmt: skip
    return parse_model(FileDefaults, {**given, "collection": collection}, {}, _in_options)


def _in_options(loc: tuple[str | int, ...], message: str) -> BadRequest:
    """An option's 400 says it is one of the options (a body's field would not)."""
    return BadRequest(f"options: {message}", field=".".join(["options", *map(str, loc)]))


@router.post(
    "/upload",
    summary="Store files (text, Markdown, HTML, reST, PDF, source code), a document each",
    openapi_extra=UPLOAD_BODY,
    response_model=UploadResponse,
    response_model_exclude_none=True,
    responses={**errors(*ACCESS, 400, 404, 413, 415, 502), **ACCEPTED},
)
async def upload_files(
    request: Request,
    access: Annotated[Access, Depends(authorize(Scope.WRITE))],
    lease: Annotated[Lease, Depends(writes)],
    settings: Annotated[Settings, Depends(get_settings)],
    collection: CollectionQuery = "default",
    run_async: AsyncQuery = False,
) -> Any:
    """Each file is a document: its doc_id the file's name (after options.doc_id_prefix),
    its title the file's own (else its name); each file of a zip archive is one, named by
    its path in the archive. Files up to RAG_SYNC_MAX_BYTES in all whose chunks need at
    most RAG_SYNC_EMBED_MAX_CHUNKS vectors made are stored before the answer, each on its
    own (a file that cannot be read is answered with its reason, the others are stored);
    other uploads, or any with ?async=true, are queued as a job: 202 with Location."""
    access.collection(collection)
    async with read_upload(request, settings) as form:
        known_fields_only(form)
        uploads = [v for v in form.getlist("files") if isinstance(v, UploadFile)]
        defaults = _defaults(form.get("options"), collection)
        files = await asyncio.to_thread(entries, uploads, settings)  # a zip's directory
        total = sum(entry.size for entry in files)
        async with lease.held(access, collection) as connect:
            async with connect() as conn:  # unknown: the upload's 404, not each file's
                await find_collection(conn, collection)
            read = None
            if not run_async and total <= settings.sync_max_bytes:
                read = await read_files(connect, files, defaults, settings)
            if read is None or read.to_embed(settings) > settings.sync_embed_max_chunks:
                items = read.items() if read else [NewItem(e.name, e.kind, e.size, e.read())
                                                   for e in files]  # fmt: skip
                params = {"defaults": defaults.model_dump(mode="json")}
                async with connect() as conn:
                    queued = await queue_ingest(request, conn, collection, items, params)
                return accepted(queued)
            results = await store_files(connect, read, settings)
    request.app.state.statistics.written(collection)
    failed = sum(1 for result in results if "error" in result)
    return {"ok": failed == 0, "documents": results, "failed": failed}
