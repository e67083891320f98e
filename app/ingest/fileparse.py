"""The parsing half of a bulk load, run in a process of its own: the file read line by
line from an offset, each line validated into a document ready to store, documents sent
in batches. It dies with the loader (Linux: the parent-death signal), so a killed load
leaves no process behind."""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass
from typing import Any

from app.errors import RagError
from app.ingest.prepare import IngestRules, PreparedDocument, parse_document, prepare_document
from app.spaces import SpaceInfo

PR_SET_PDEATHSIG = 1


@dataclass
class ParsedBatch:
    """Documents ready to store, where the file stands after them (the byte offset and
    line number of the next line to read), and the error that stopped the parse."""

    docs: list[PreparedDocument]
    offset: int
    line: int
    error: str | None = None


def _die_with_parent(parent: int) -> None:
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the loader died before the signal was set up
        os._exit(1)


@dataclass(frozen=True)
class FileJob:
    path: str
    offset: int  # where to start reading
    line: int  # lines before the offset
    spaces: dict[str, SpaceInfo]
    rules: IngestRules
    batch_chunks: int
    parent: int  # the loader's pid


def _starts_new_batch(batch: list[PreparedDocument], doc_ids: set[str], chunks: int,
                      doc: PreparedDocument, limit: int) -> bool:  # fmt: skip
    """A batch holds one collection's documents, never one doc_id twice."""
    return bool(batch) and (
        doc.doc_id in doc_ids or chunks + len(doc.chunks) > limit
        or batch[0].collection != doc.collection
    )  # fmt: skip


def parse_file(job: FileJob, out: Any) -> None:
    """Validate the file from ``job.offset``, send ParsedBatch items to ``out``, then
    ``None``."""
    _die_with_parent(job.parent)
    batch: list[PreparedDocument] = []
    doc_ids: set[str] = set()
    chunks, offset, line_number = 0, job.offset, job.line
    with open(job.path, "rb") as handle:
        handle.seek(job.offset)
        for line in handle:
            line_number += 1
            if line.strip():
                try:
                    doc = prepare_document(parse_document(line), job.spaces, job.rules)
                except RagError as error:
                    failure = f"{job.path}:{line_number}: {error.message}"
                    out.put(ParsedBatch(batch, offset, line_number - 1, failure))
                    out.put(None)
                    return
                if _starts_new_batch(batch, doc_ids, chunks, doc, job.batch_chunks):
                    out.put(ParsedBatch(batch, offset, line_number - 1))
                    batch, doc_ids, chunks = [], set(), 0
                batch.append(doc)
                doc_ids.add(doc.doc_id)
                chunks += len(doc.chunks)
            offset += len(line)
    out.put(ParsedBatch(batch, offset, line_number))
    out.put(None)
