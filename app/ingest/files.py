"""A file as a document: read by its type (app/text/formats.py), its doc_id the file's
name (after an optional prefix), its title the one the file gives itself, else its name."""

from __future__ import annotations

import hashlib
from pathlib import PurePath
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.errors import BadRequest
from app.ingest.models import DOCUMENT_RULES, ChunkingIn, DocumentIn, Tag
from app.ingest.prepare import IngestRules, PreparedDocument, prepare_document
from app.settings import Settings
from app.spaces import SpaceInfo
from app.text.formats import parse_file
from app.validation import CollectionName, Metadata, Text, Timestamp, parse_model


class FileDefaults(BaseModel):
    """What every document read from the files of one upload (or ingest) gets."""

    model_config = ConfigDict(extra="forbid")

    collection: CollectionName = "default"
    doc_id_prefix: Text = Field(default="", max_length=256)
    category: Text | None = Field(default=None, max_length=100)
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    metadata: Metadata = Field(default_factory=dict)
    chunking: ChunkingIn | None = None
    created_at: Timestamp | None = None


class EmptyFile(BadRequest):
    """A file of no bytes or only whitespace: an upload's is refused; ``ragsearch ingest``
    leaves it out (an empty ``__init__.py`` in a folder is no failure)."""


def file_document(
    data: bytes, name: str, content_type: str, defaults: FileDefaults,
    spaces: dict[str, SpaceInfo], rules: IngestRules, settings: Settings,
) -> PreparedDocument:  # fmt: skip
    parsed = parse_file(data, name, content_type, settings.max_document_chars,
                        settings.max_html_depth)  # fmt: skip
    if not parsed.text.strip():
        blank = not data.strip()  # a PDF of scans holds bytes and no text: that is an error
        raise (EmptyFile if blank else BadRequest)(f"{name}: the file holds no text",
                                                   field="file")  # fmt: skip
    fields: dict[str, Any] = {
        "collection": defaults.collection, "doc_id": defaults.doc_id_prefix + name, "src": name,
        "title": (parsed.title or PurePath(name).name)[:4096], "category": defaults.category,
        "tags": defaults.tags, "metadata": defaults.metadata, "chunking": defaults.chunking,
        "created_at": defaults.created_at,
    }  # fmt: skip
    doc = parse_model(DocumentIn, fields, DOCUMENT_RULES)
    digest = hashlib.sha256(data).hexdigest()
    return prepare_document(doc, spaces, rules, parsed, content_type, digest)
