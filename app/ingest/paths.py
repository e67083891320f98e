"""What ``ragsearch ingest PATH...`` reads: files, folders (every file of a kind the
service reads, hidden ones left out) and glob patterns, in a stable order; JSONL files
apart (they are documents already, loaded in bulk)."""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field
from pathlib import Path

from app.errors import BadRequest, UnsupportedMediaType
from app.text.formats import type_of_file

JSONL_SUFFIXES = (".jsonl", ".ndjson")


@dataclass
class Inputs:
    jsonl: list[Path] = field(default_factory=list)
    files: list[tuple[Path, str]] = field(default_factory=list)  # with their content type
    skipped: list[Path] = field(default_factory=list)  # in folders, of kinds not read


def _walk(folder: Path) -> list[Path]:
    found = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [Path(root) / name for name in sorted(names) if not name.startswith(".")]
    return found


def _expand(arg: str) -> tuple[list[Path], bool]:
    """The files an argument names, and whether it named them one by one."""
    if arg == "-":
        return [Path("-")], True
    if glob.has_magic(arg):
        matched = sorted(Path(p) for p in glob.glob(arg, recursive=True))
        return [p for p in matched if p.is_file()], False
    path = Path(arg)
    if path.is_dir():
        return _walk(path), False
    if not path.exists():
        raise BadRequest(f"{arg}: no such file or folder")
    return [path], True


def inputs(args: list[str]) -> Inputs:
    found = Inputs()
    seen: set[Path] = set()
    for arg in args:
        paths, named = _expand(arg)
        if not paths and not named:
            raise BadRequest(f"{arg}: matches no file")
        for path in paths:
            if path in seen:
                continue
            seen.add(path)
            if str(path) != "-" and not path.is_file():
                if named:  # a device reads without end (/dev/zero), a pipe waits for ever
                    raise BadRequest(f"{path}: not a regular file (devices, pipes and "
                                     "sockets are not read)")  # fmt: skip
                found.skipped.append(path)
                continue
            if str(path) == "-" or path.suffix.lower() in JSONL_SUFFIXES:
                found.jsonl.append(path)
                continue
            try:
                found.files.append((path, type_of_file(path.name)))
            except UnsupportedMediaType:
                if named:
                    raise
                found.skipped.append(path)
    return found
