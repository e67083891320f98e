"""PDF read with pypdf: the text of each page in order, a page a section (heading path
"page N"), its paragraphs as pypdf lays them out. pypdf bounds what a compressed stream
may unpack to; the text as a whole is bounded by RAG_MAX_DOCUMENT_CHARS."""

from __future__ import annotations

import io
import logging

from app.errors import BadRequest
from app.text.blocks import Block, Parsed, paragraphs
from app.validation import storable_text

logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings are the file's, not ours


def parse_pdf(data: bytes, max_chars: int) -> Parsed:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise BadRequest("the PDF is encrypted", field="file")
        pages: list[str] = []
        size = 0
        for page in reader.pages:
            text = storable_text(page.extract_text() or "")
            size += len(text) + 2
            if size > max_chars:
                raise BadRequest(
                    f"the PDF's text is longer than {max_chars:,} characters "
                    "(RAG_MAX_DOCUMENT_CHARS)", field="file",
                )  # fmt: skip
            pages.append(text)
        info = reader.metadata
        title = storable_text(str(info.get("/Title") or "")).strip() if info is not None else ""
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, RecursionError) as error:
        said = str(error) if isinstance(error, PyPdfError) and str(error) else "it is malformed"
        raise BadRequest(f"the PDF cannot be read: {said}", field="file") from None
    text_parts, blocks, position = [], [], 0
    for number, page_text in enumerate(pages, start=1):
        body = page_text.strip()
        text_parts.append(body + "\n\n")
        for block in paragraphs(body, 0, len(body), (f"page {number}",)):
            blocks.append(Block(block.start + position, block.end + position, "text", block.path))
        position += len(body) + 2
    return Parsed("".join(text_parts), blocks, title)
