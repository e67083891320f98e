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


# A member's entry in the directory: 46 bytes and its name (here up to 512 bytes). The
# directory is read whole, as its end record declares, before any member is counted: an
# archive whose directory passes RAG_MAX_UPLOAD_FILES such entries is refused unread.
ENTRY_BYTES = 46 + 512
END_RECORD, END_RECORD_64, LOCATOR_64 = b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07"


def directory_bytes(archive: IO[bytes]) -> int | None:
    """The size of the archive's directory, as its end record declares it (None: no end
    record, which the zip reader then reports)."""
    size = archive.seek(0, 2)
    start = max(0, size - 22 - 65_535)  # the record, and a comment of up to 64 KiB
    archive.seek(start)
    tail = archive.read()
    archive.seek(0)
    at = tail.rfind(END_RECORD)
    if at < 0 or at + 22 > len(tail):
        return None
    declared = int.from_bytes(tail[at + 12 : at + 16], "little")
    locator = tail.rfind(LOCATOR_64, 0, at)
    if declared != 0xFFFFFFFF or locator < 0 or locator + 20 > len(tail):
        return declared
    archive.seek(int.from_bytes(tail[locator + 8 : locator + 16], "little"))
    record = archive.read(56)
    archive.seek(0)
    return int.from_bytes(record[40:48], "little") if record[:4] == END_RECORD_64 else None


def members(
    archive: IO[bytes], name: str, settings: Settings
) -> tuple[zipfile.ZipFile, list[Member]]:
    """The archive opened, and the members to read (415 if none is of a kind it reads)."""
    directory = directory_bytes(archive)
    if directory is not None and directory > settings.max_upload_files * ENTRY_BYTES:
        raise too_many_files(settings, f"{name}'s directory alone is {directory:,} bytes")
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
