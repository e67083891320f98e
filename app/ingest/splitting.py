"""A document's ``text`` into chunks: read by its content type, split in the tokens of the
model that embeds it (the first space with an embedder; app/ingest/rules.py), each
chunk with its position (heading path, character offsets into the text; for HTML and
PDF, into the text extracted from them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.errors import BadRequest
from app.ingest.models import ChunkIn, DocumentIn
from app.settings import Settings
from app.text.blocks import Parsed
from app.text.formats import parse_text, text_type
from app.text.split import Sizing, TooManyPieces, split
from app.text.tokens import tokenizer_at

MIN_CHUNK_TOKENS = 8


@dataclass(frozen=True)
class Position:
    path: tuple[str, ...]
    start: int | None
    end: int | None


@dataclass(frozen=True)
class Splitting:
    """How text is split: the settings and the embedding model's tokenizer and limit."""

    chunk_tokens: int = 200
    overlap_tokens: int = 20
    max_document_chars: int = 10_000_000
    max_html_depth: int = 512
    max_chunks: int = 20_000  # a text that splits into more is refused
    tokenizer_file: str | None = None  # None: words and punctuation
    model_max_tokens: int | None = None  # what the model reads, special tokens left out
    context_prefix: str = ""  # put before every chunk it embeds (document prefix)

    @classmethod
    def from_settings(cls, settings: Settings) -> Splitting:
        return cls(
            chunk_tokens=settings.chunk_tokens,
            overlap_tokens=settings.chunk_overlap_tokens,
            max_document_chars=settings.max_document_chars,
            max_html_depth=settings.max_html_depth,
            max_chunks=settings.max_text_chunks,
        )

    def content_type(self, doc: DocumentIn) -> str:
        return text_type(doc.content_type)

    def sizing(self, doc: DocumentIn, title: str) -> Sizing:
        """The chunk size: as asked (else RAG_CHUNK_TOKENS), never more than the model
        reads beside the title line it is embedded with."""
        tokenizer = tokenizer_at(self.tokenizer_file)
        asked = doc.chunking.max_tokens if doc.chunking else None
        size = asked or self.chunk_tokens
        if self.model_max_tokens is not None:
            context = len(tokenizer.offsets(f"{self.context_prefix}{title}")) + 1
            size = min(size, max(MIN_CHUNK_TOKENS, self.model_max_tokens - context))
        given = doc.chunking.overlap_tokens if doc.chunking else None
        overlap = self.overlap_tokens if given is None else given
        return Sizing(tokenizer, size, min(overlap, size // 2))

    def parse(self, doc: DocumentIn) -> Parsed:
        text = doc.text or ""
        if not text.strip():
            raise BadRequest("text must not be empty (or give chunks)", field="text")
        return parse_text(text, self.content_type(doc), self.max_document_chars,
                          self.max_html_depth)  # fmt: skip


def split_text(
    doc: DocumentIn, splitting: Splitting, now: datetime, parsed: Parsed | None = None
) -> tuple[list[ChunkIn], list[Position], str]:
    """The chunks of a document given as text (or read from a file: ``parsed``), their
    positions, and its title (as given, else the one the text names: a Markdown or reST
    title, an HTML page's, a PDF's)."""
    if doc.chunks:
        raise BadRequest("give chunks or text, not both", field="text")
    parsed = parsed or splitting.parse(doc)
    title = doc.title or parsed.title
    try:
        pieces = split(parsed, splitting.sizing(doc, title), most=splitting.max_chunks)
    except TooManyPieces:
        raise BadRequest(
            f"text: splits into more than {splitting.max_chunks:,} chunks "
            "(RAG_MAX_TEXT_CHUNKS); give a larger chunking.max_tokens or send it as "
            "several documents", field="text", limit=splitting.max_chunks,
        ) from None  # fmt: skip
    created = doc.created_at or now
    chunks = [
        ChunkIn.model_construct(chunk=parsed.text[p.start : p.end], created_at=created)
        for p in pieces
    ]
    return chunks, [Position(p.path, p.start, p.end) for p in pieces], title[:4096]
