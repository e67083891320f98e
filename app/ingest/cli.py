"""``ragsearch ingest PATH...``: JSONL files loaded in bulk (app/ingest/bulk.py), other
files a document each (app/ingest/load_files.py), against DATABASE_URL or the embedded
server; a summary line per kind, exit status 1 when anything failed."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from app.db.runtime import DatabaseRuntime
from app.ingest.bulk import bulk_session, chunk_rate, ingest_file
from app.ingest.files import FileDefaults
from app.ingest.load_files import FileLoader, FilesReport
from app.ingest.paths import inputs
from app.settings import Settings
from app.validation import parse_model


def _files_summary(report: FilesReport, count: int, skipped: int, seconds: float) -> str:
    stored = report.stored
    parts = [f"stored {stored.documents} of {count} files as documents, {stored.chunks} "
             f"chunks, {report.embedded} embedded, in {seconds:.1f} s "
             f"({chunk_rate(stored.chunks, seconds)})"]  # fmt: skip
    if report.unchanged:
        parts.append(f"{report.unchanged} unchanged (skipped)")
    if skipped:
        parts.append(f"{skipped} files of other kinds left out")
    if report.empty:
        parts.append(f"{report.empty} empty files left out")
    if report.failed:
        parts.append(f"{len(report.failed)} failed")
    return "; ".join(parts)


async def _load_files(
    args: argparse.Namespace, settings: Settings, files: list[tuple[Path, str]], skipped: int
) -> int:
    defaults = parse_model(
        FileDefaults, {"collection": args.collection, "doc_id_prefix": args.doc_id_prefix}, {}
    )
    runtime = DatabaseRuntime(settings)
    started = time.perf_counter()
    try:
        url = runtime.start()
        async with bulk_session(url, settings) as conn:
            loader = FileLoader(conn, settings, defaults, args.batch_chunks, args.resume)
            report = await loader.load(files)
    finally:
        runtime.stop()
    print(_files_summary(report, len(files), skipped, time.perf_counter() - started))
    for failure in report.failed:
        print(f"failed: {failure}", file=sys.stderr)
    return 1 if report.failed else 0


async def ingest_paths(args: argparse.Namespace, settings: Settings) -> int:
    found = inputs(args.paths)
    status = 0
    for path in found.jsonl:
        status = max(
            status,
            await ingest_file(
                path,
                settings,
                batch_chunks=args.batch_chunks,
                rebuild=args.rebuild_index,
                resume=args.resume,
            ),
        )
    if found.files:
        status = max(status, await _load_files(args, settings, found.files, len(found.skipped)))
    elif not found.jsonl:
        print(f"no file of a kind it reads ({len(found.skipped)} left out)", file=sys.stderr)
        return 1
    return status
