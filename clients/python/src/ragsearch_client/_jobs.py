"""What the sync and async clients share about jobs: files to send, when a job is
finished, and a stored document read from the job that stored it."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ragsearch_client import models
from ragsearch_client.errors import JobFailedError

FINISHED = frozenset({"done", "failed", "cancelled"})
FileInput = str | os.PathLike[str] | tuple[str, bytes]


def read_files(files: Iterable[FileInput]) -> list[tuple[str, bytes]]:
    """(name, bytes) of each file: a path is read (its name sent as given), a pair kept."""
    read = []
    for item in files:
        if isinstance(item, tuple):
            read.append(item)
        else:
            read.append((os.fspath(item), Path(item).read_bytes()))
    return read


def stored_by(job: models.Job) -> models.IngestResponse:
    """The one document a finished job stored, as a direct store answers (vectors per
    space are not counted by a job: left empty)."""
    item = job.items[0] if job.items else None
    if job.status != "done" or item is None or item.status != "done":
        reason = item.error if item is not None and item.error else job.error or job.status
        raise JobFailedError(job, reason)
    chunks = job.progress.chunks
    return models.IngestResponse(ok=True, doc_id=item.doc_id or item.name,
                                 chunks=item.chunks or 0, replaced_chunks=0, vectors={},
                                 embedded=chunks.embedded, cached=chunks.cached)  # fmt: skip
