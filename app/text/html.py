"""HTML read with Python's own HTML parser, as a stream of events: no tree is built, so
memory stays bounded however the page nests; a page nested deeper than the limit, or
whose text is longer than the limit, is refused with a clear error.

The text chunks are cut from is the page's visible text: headings, paragraphs and list
items on lines of their own, ``pre`` kept as written (a code block), table rows as lines
of cells joined by `` | `` (a table block); scripts, styles and the head left out. The
title is the page's ``<title>``, else its first ``<h1>``.
"""

from __future__ import annotations

from html.parser import HTMLParser

from app.errors import BadRequest
from app.text.blocks import Block, Kind, Parsed

VOID = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
     "source", "track", "wbr")
)  # fmt: skip
HIDDEN = frozenset(("script", "style", "noscript", "template", "head", "svg", "iframe", "object"))
HEADINGS = {f"h{n}": n for n in range(1, 7)}
BLOCKS = frozenset(
    ("p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "ul", "ol",
     "dl", "li", "dt", "dd", "blockquote", "figure", "figcaption", "form", "fieldset",
     "address", "details", "summary", "body", "html")
)  # fmt: skip
AUTO_CLOSED = frozenset(("p", "li", "dt", "dd", "tr", "td", "th", "option"))
FEED = 1 << 16


class _PageReader(HTMLParser):
    def __init__(self, max_depth: int, max_chars: int) -> None:
        super().__init__(convert_charrefs=True)
        self.max_depth, self.max_chars = max_depth, max_chars
        self.parts: list[str] = []
        self.size = 0
        self.stack: list[str] = []
        self.blocks: list[Block] = []
        self.path: list[tuple[int, str]] = []
        self.kind: Kind = "text"
        self.block_start = 0
        self.hidden = 0
        self.pre = 0
        self.space = False
        self.heading: tuple[int, list[str]] | None = None
        self.title: list[str] | None = None
        self.page_title = ""
        self.first_h1 = ""

    # --- output -----------------------------------------------------------------
    def _write(self, text: str) -> None:
        if not text:
            return
        self.size += len(text)
        if self.size > self.max_chars:
            raise BadRequest(
                f"the page's text is longer than {self.max_chars:,} characters "
                "(RAG_MAX_DOCUMENT_CHARS)", field="text",
            )  # fmt: skip
        self.parts.append(text)

    def _ends_with(self, suffix: str) -> bool:
        tail = "".join(self.parts[-2:])
        return tail.endswith(suffix) or not tail

    def _break(self, kind: Kind = "text") -> None:
        """End the block being written; the next text starts a block of ``kind``."""
        if self.size > self.block_start:
            path = tuple(name for _, name in self.path)
            self.blocks.append(Block(self.block_start, self.size, self.kind, path))
        if not self._ends_with("\n\n"):
            self._write("\n" if self._ends_with("\n") else "\n\n")
        self.block_start, self.kind, self.space = self.size, kind, False

    def _text(self, data: str) -> None:
        if self.pre:
            self._write(data)
            return
        words = data.split()
        if not words:
            self.space = self.space or bool(data)
            return
        lead = " " if (self.space or data[0].isspace()) and not self._ends_with("\n") else ""
        self._write(lead + " ".join(words))
        self.space = data[-1].isspace()

    # --- structure ----------------------------------------------------------------
    def _push(self, tag: str) -> None:
        if tag in AUTO_CLOSED and tag in self.stack[-3:]:
            while self.stack and self.stack[-1] != tag:
                self.stack.pop()
            if self.stack:
                self.stack.pop()
        self.stack.append(tag)
        if len(self.stack) > self.max_depth:
            raise BadRequest(
                f"the page nests elements deeper than {self.max_depth} (RAG_MAX_HTML_DEPTH)",
                field="text",
            )

    def _pop(self, tag: str) -> bool:
        if tag not in self.stack:
            return False
        while self.stack.pop() != tag:
            pass
        return True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            if tag in ("br", "hr") and not self.hidden:
                self._write("\n")
            return
        self._push(tag)
        if tag in HIDDEN or self.hidden:
            self.hidden += tag in HIDDEN
            if tag == "title" and self.title is None:
                self.title = []
            return
        if tag == "title":
            self.title = []
        elif tag in HEADINGS:
            self._break("heading")
            self.heading = (HEADINGS[tag], [])
        elif tag == "pre":
            self._break("code")
            self.pre += 1
        elif tag == "table":
            self._break("table")
        elif tag == "tr" and not self._ends_with("\n"):
            self._write("\n")
        elif tag in ("td", "th") and not self._ends_with("\n"):
            self._write(" | ")
        elif tag in BLOCKS:
            self._break(self.kind if self.kind in ("table", "code") else "text")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not self._pop(tag):
            return
        if tag == "title" and self.title is not None:
            self.page_title = self.page_title or " ".join("".join(self.title).split())
            self.title = None
        if tag in HIDDEN:
            self.hidden = max(0, self.hidden - 1)
            return
        if self.hidden:
            return
        if tag in HEADINGS and self.heading is not None:
            self._end_heading()
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
            self._break()
        elif tag == "table" or tag in BLOCKS:
            self._break()

    def _end_heading(self) -> None:
        assert self.heading is not None
        level, words = self.heading
        name = " ".join(" ".join(words).split())
        self.heading = None
        self.path = [(lvl, n) for lvl, n in self.path if lvl < level] + [(level, name)]
        if level == 1 and not self.first_h1:
            self.first_h1 = name
        self._break()

    def handle_data(self, data: str) -> None:
        if self.title is not None and "title" in self.stack:
            self.title.append(data)
            return
        if self.hidden:
            return
        if self.heading is not None:
            self.heading[1].append(data)
        self._text(data)

    def result(self) -> Parsed:
        self._break()
        text = "".join(self.parts)
        blocks = [b for b in self.blocks if text[b.start : b.end].strip()]
        return Parsed(text, blocks, self.page_title or self.first_h1)


def parse_html(html: str, max_depth: int, max_chars: int) -> Parsed:
    """The page's text and structure, fed to the parser a piece at a time."""
    reader = _PageReader(max_depth, max_chars)
    for offset in range(0, len(html), FEED):
        reader.feed(html[offset : offset + FEED])
    reader.close()
    return reader.result()
