"""The formats the service reads, by content type and by file name."""

from __future__ import annotations

from pathlib import PurePath

from app.errors import BadRequest, UnsupportedMediaType
from app.text.blocks import Parsed
from app.text.html import parse_html
from app.text.markdown import parse_markdown
from app.text.pdf import parse_pdf
from app.text.plain import parse_code, parse_plain, parse_rst
from app.validation import storable_text

PLAIN, MARKDOWN, HTML, RST, CODE, PDF = (
    "text/plain", "text/markdown", "text/html", "text/x-rst", "text/x-code", "application/pdf",
)  # fmt: skip
TEXT_TYPES = (PLAIN, MARKDOWN, HTML, RST, CODE)  # what a JSON document's text may be
FILE_TYPES = (*TEXT_TYPES, PDF)

SOURCE_SUFFIXES = frozenset(
    (".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java",
     ".kt", ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift",
     ".m", ".sh", ".bash", ".sql", ".r", ".lua", ".pl", ".hs", ".ex", ".exs", ".erl",
     ".clj", ".dart", ".vue", ".svelte", ".css", ".scss", ".toml", ".yaml", ".yml",
     ".ini", ".cfg", ".json", ".xml", ".proto", ".tf", ".gradle", ".cmake", ".mk")
)  # fmt: skip
BY_SUFFIX = {
    ".txt": PLAIN, ".text": PLAIN, ".log": PLAIN, ".csv": PLAIN, ".tsv": PLAIN,
    ".md": MARKDOWN, ".markdown": MARKDOWN, ".mdx": MARKDOWN,
    ".html": HTML, ".htm": HTML, ".xhtml": HTML,
    ".rst": RST, ".rest": RST, ".pdf": PDF,
}  # fmt: skip
BY_NAME = {"makefile": CODE, "dockerfile": CODE, "readme": PLAIN, "license": PLAIN}
ALIASES = {"text/x-markdown": MARKDOWN, "application/xhtml+xml": HTML, "text/rst": RST,
           "text/prs.fallenstein.rst": RST, "application/x-pdf": PDF}  # fmt: skip


def accepted() -> str:
    return ", ".join(FILE_TYPES)


def media_type(value: str) -> str:
    media = value.split(";", 1)[0].strip().lower()
    return ALIASES.get(media, media)


def type_of_file(name: str, declared: str | None = None) -> str:
    """A file's content type: by its name's suffix, else the type declared for it; 415
    naming the accepted types when neither is one the service reads."""
    path = PurePath(name.lower())
    if path.suffix in BY_SUFFIX:
        return BY_SUFFIX[path.suffix]
    if path.suffix in SOURCE_SUFFIXES:
        return CODE
    if path.name in BY_NAME:
        return BY_NAME[path.name]
    if declared and media_type(declared) in FILE_TYPES:
        return media_type(declared)
    raise UnsupportedMediaType(
        f"{name}: cannot read this kind of file; accepted: {accepted()} (by suffix: "
        f"{', '.join(sorted(BY_SUFFIX))} and source code)",
        accepted=list(FILE_TYPES), file=name,
    )  # fmt: skip


def text_type(value: str | None) -> str:
    """A JSON document's content_type (default text/plain), or 415 naming the accepted."""
    if value is None:
        return PLAIN
    media = media_type(value)
    if media not in TEXT_TYPES:
        raise UnsupportedMediaType(
            f"content_type: {value!r} is not a type the service splits; accepted: "
            f"{', '.join(TEXT_TYPES)}", field="content_type", accepted=list(TEXT_TYPES),
        )  # fmt: skip
    return media


def decoded(data: bytes, name: str) -> str:
    """A text file's bytes as text: UTF-8 (with or without BOM), else UTF-16 with a BOM or
    without one (its ASCII characters' zero bytes all on one side); UTF-8 with a few
    broken bytes (each read as U+FFFD) when it holds at least as many well-formed
    multi-byte characters, else Windows-1252 (Latin-1 with its printable 80-9F: every
    byte is a character); NUL dropped (storable_text). Bytes that are not text (more than
    a few control bytes: a program, an image named .txt) are refused."""
    utf16 = "utf-16" if data.startswith((b"\xff\xfe", b"\xfe\xff")) else _bomless_utf16(data)
    if utf16:
        try:
            return storable_text(data.decode(utf16))
        except UnicodeDecodeError:
            raise BadRequest(f"{name}: not valid UTF-16 text", field="file") from None
    _refuse_binary(data, name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = _damaged_utf8(data) or data.decode("latin-1").translate(_WINDOWS_1252)
    return storable_text(text)


SAMPLE = 65_536  # the bytes read to tell text from not
# Control bytes text does not hold (tab, line ends, form feed and escape aside).
_CONTROL = bytes(set(range(32)) - {9, 10, 11, 12, 13, 27} | {127})
# Latin-1's 80-9F are controls no text holds; Windows-1252 (what "Latin-1" text is, as
# browsers read it) puts quotes, dashes and the euro there: those it defines.
_WINDOWS_1252 = {
    byte: bytes([byte]).decode("cp1252") for byte in range(0x80, 0xA0)
    if byte not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
}  # fmt: skip


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 without a byte order mark: most of its characters are ASCII, whose zero
    byte falls on every second position (the odd ones little-endian), never the others."""
    sample = data[: SAMPLE - SAMPLE % 2]
    half = len(sample) // 2
    if half < 2:
        return None
    odd, even = sample[1::2].count(0), sample[0::2].count(0)
    if odd >= 0.4 * half and even <= 0.02 * half:
        return "utf-16-le"
    if even >= 0.4 * half and odd <= 0.02 * half:
        return "utf-16-be"
    return None


def _refuse_binary(data: bytes, name: str) -> None:
    sample = data[:SAMPLE]
    controls = len(sample) - len(sample.translate(None, _CONTROL))
    if controls >= 8 and controls > 0.05 * len(sample):
        raise BadRequest(f"{name}: not text ({controls:,} of its first {len(sample):,} bytes "
                         "are control bytes: a program or an image?)", field="file")  # fmt: skip


def _damaged_utf8(data: bytes) -> str | None:
    """UTF-8 text with broken bytes in it (a file cut and joined, one stray byte), or None
    when the bytes read as Latin-1 better: Latin-1 text all but never holds a well-formed
    UTF-8 sequence (a capital from C2-DF followed by a control or a sign from 80-BF), so
    one such character for each broken byte says UTF-8 (before, one stray byte made every
    é of a file Ã©)."""
    text = data.decode("utf-8-sig", errors="replace")
    broken = text.count("\ufffd")
    wide = sum(1 for ch in text if ch >= "\x80") - broken
    return text if wide >= broken else None


def parse_text(text: str, content_type: str, max_chars: int, max_html_depth: int) -> Parsed:
    """Read text of a type the service splits."""
    if content_type == HTML:
        return parse_html(text, max_html_depth, max_chars)
    if len(text) > max_chars:
        raise BadRequest(
            f"text: {len(text):,} characters; at most {max_chars:,} per document "
            "(RAG_MAX_DOCUMENT_CHARS)", field="text",
        )  # fmt: skip
    if content_type == MARKDOWN:
        return parse_markdown(text)
    if content_type == RST:
        return parse_rst(text)
    if content_type == CODE:
        return parse_code(text)
    return parse_plain(text)


def parse_file(
    data: bytes, name: str, content_type: str, max_chars: int, max_html_depth: int
) -> Parsed:
    """Read a file's bytes (of a type from ``type_of_file``)."""
    if content_type == PDF:
        return parse_pdf(data, max_chars)
    if len(data) > 4 * max_chars:
        raise BadRequest(
            f"{name}: {len(data):,} bytes; the text of a document is at most {max_chars:,} "
            "characters (RAG_MAX_DOCUMENT_CHARS)", field="file",
        )  # fmt: skip
    return parse_text(decoded(data, name), content_type, max_chars, max_html_depth)
