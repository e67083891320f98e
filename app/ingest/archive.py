"""Zip archives in uploads: each member a file of its own (by its name's kind; members of
other kinds, folders, hidden files and archives inside the archive left out). Unpacked as
it is read, a MiB at a time, never trusting the sizes the archive declares: a member that
unpacks past RAG_MAX_FILE_BYTES, or an archive past RAG_MAX_UPLOAD_BYTES in all, is
refused (413) as soon as it does, so a zip bomb costs no memory."""

from __future__ import annotations

import zipfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO

from app.errors import BadRequest, PayloadTooLarge, UnsupportedMediaType
from app.settings import Settings
from app.text.formats import type_of_file

PIECE = 1 << 20


@dataclass(frozen=True)
class Member:
    name: str  # the member's path inside the archive
    kind: str
    size: int  # as declared (checked again while unpacking)
    info: zipfile.ZipInfo


def _wanted(info: zipfile.ZipInfo) -> bool:
    parts = PurePosixPath(info.filename).parts
    hidden = any(part.startswith(".") or part == "__MACOSX" for part in parts)
    return not info.is_dir() and not hidden and not info.filename.lower().endswith(".zip")


def _too_large(name: str, limit: int, setting: str) -> PayloadTooLarge:
    return PayloadTooLarge(f"{name}: unpacks to more than {limit} bytes ({setting})",
                           file=name, limit=limit, setting=setting)  # fmt: skip


def too_many_files(settings: Settings, found: str) -> PayloadTooLarge:
    limit = settings.max_upload_files
    return PayloadTooLarge(
        f"files: an upload holds at most {limit:,} files, a zip archive's members counted "
        f"(RAG_MAX_UPLOAD_FILES); {found}", field="files", limit=limit,
        setting="RAG_MAX_UPLOAD_FILES",
    )  # fmt: skip


def members(
    archive: IO[bytes], name: str, settings: Settings
) -> tuple[zipfile.ZipFile, list[Member]]:
    """The archive opened, and the members to read (415 if none is of a kind it reads)."""
    try:
        opened = zipfile.ZipFile(archive)
        infos = opened.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise BadRequest(
            f"{name}: not a zip archive that can be read ({error})", field="files"
        ) from None
    if len(infos) > settings.max_upload_files:
        raise too_many_files(settings, f"{name} holds {len(infos):,}")
    found, declared = [], 0
    for info in infos:
        if not _wanted(info):
            continue
        try:
            kind = type_of_file(info.filename)
        except UnsupportedMediaType:
            continue
        if info.file_size > settings.max_file_bytes:
            raise _too_large(
                f"{name}/{info.filename}", settings.max_file_bytes, "RAG_MAX_FILE_BYTES"
            )
        declared += info.file_size
        if declared > settings.max_upload_bytes:
            raise _too_large(name, settings.max_upload_bytes, "RAG_MAX_UPLOAD_BYTES")
        found.append(Member(info.filename, kind, info.file_size, info))
    if not found:
        raise UnsupportedMediaType(f"{name}: the archive holds no file of a kind the service reads",
                                   file=name)  # fmt: skip
    return opened, found


class Unpacked:
    """The bytes unpacked from one archive so far, against RAG_MAX_UPLOAD_BYTES."""

    def __init__(self, name: str, settings: Settings) -> None:
        self.name, self.settings, self.total = name, settings, 0

    async def read(self, archive: zipfile.ZipFile, member: Member) -> AsyncIterator[bytes]:
        size = 0
        try:
            with archive.open(member.info) as stream:
                while piece := stream.read(PIECE):
                    size += len(piece)
                    self.total += len(piece)
                    if size > self.settings.max_file_bytes:
                        raise _too_large(
                            f"{self.name}/{member.name}",
                            self.settings.max_file_bytes,
                            "RAG_MAX_FILE_BYTES",
                        )
                    if self.total > self.settings.max_upload_bytes:
                        raise _too_large(
                            self.name, self.settings.max_upload_bytes, "RAG_MAX_UPLOAD_BYTES"
                        )
                    yield piece
        except (zipfile.BadZipFile, OSError, EOFError) as error:
            raise BadRequest(
                f"{self.name}/{member.name}: cannot be unpacked ({error})", field="files"
            ) from None
