"""Markdown read with markdown-it (CommonMark, with GitHub's tables): headings make the
heading path; fenced and indented code and tables are blocks of their own; paragraphs,
lists and quotes are text. Offsets come from each block's source lines."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from app.text.blocks import Block, Kind, Parsed, filled

_KINDS: dict[str, Kind] = {"fence": "code", "code_block": "code", "table_open": "table"}


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"maxNesting": 20}).enable("table")


# Where markdown-it's lines start: it ends a line at "\r\n", "\r" or "\n" alike (a
# bare "\r" counted as a line of its own put its lines past the text's last).
_LINE_END = re.compile(r"\r\n|\r|\n")


def _line_starts(text: str) -> list[int]:
    return [0, *(match.end() for match in _LINE_END.finditer(text))]


def _span(text: str, starts: list[int], lines: list[int]) -> tuple[int, int]:
    start = starts[lines[0]]
    end = starts[lines[1]] if lines[1] < len(starts) else len(text)
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def parse_markdown(text: str) -> Parsed:
    tokens = _parser().parse(text)
    starts = _line_starts(text)
    blocks: list[Block] = []
    path: list[tuple[int, str]] = []  # (level, heading)
    title = ""
    for index, token in enumerate(tokens):
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        start, end = _span(text, starts, token.map)
        if end <= start:
            continue
        if token.type == "heading_open":
            level = int(token.tag[1:])
            heading = tokens[index + 1].content.strip() if index + 1 < len(tokens) else ""
            path = [(lvl, name) for lvl, name in path if lvl < level] + [(level, heading)]
            title = title or (heading if level == 1 else "")
            blocks.append(Block(start, end, "heading", tuple(name for _, name in path)))
            continue
        kind = _KINDS.get(token.type, "text")
        blocks.append(Block(start, end, kind, tuple(name for _, name in path)))
    return Parsed(text, filled(text, blocks), title)
