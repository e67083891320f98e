"""Plain text, reStructuredText and source code: paragraphs between blank lines; reST
section titles (a line underlined, or over- and underlined, with one punctuation
character) make the heading path and its literal blocks (after ``::``) are code; a source
file is code throughout, split between its blank-line-separated parts."""

from __future__ import annotations

from app.text.blocks import Block, Parsed, line_starts, paragraphs

ADORNMENT = set("=-`:'\"~^_*+#<>.")


def parse_plain(text: str) -> Parsed:
    return Parsed(text, paragraphs(text, 0, len(text), ()))


def parse_code(text: str) -> Parsed:
    return Parsed(text, [Block(b.start, b.end, "code") for b in paragraphs(text, 0, len(text), ())])


def _is_adornment(line: str, under: str) -> bool:
    stripped = line.rstrip()
    return (
        len(stripped) >= max(2, len(under.rstrip()))
        and stripped[0] in ADORNMENT
        and stripped == stripped[0] * len(stripped)
    )


def _sections(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, title, adornment character) of each section title."""
    lines = text.split("\n")
    starts = line_starts(text)
    found = []
    for i in range(len(lines) - 1):
        title, under = lines[i], lines[i + 1]
        if not title.strip() or title[0].isspace() or not _is_adornment(under, title):
            continue
        over = i > 0 and _is_adornment(lines[i - 1], title) and lines[i - 1][0] == under[0]
        start = starts[i - 1] if over else starts[i]
        end = starts[i + 1] + len(under.rstrip())
        found.append((start, end, title.strip(), ("over" if over else "") + under[0]))
    return found


def parse_rst(text: str) -> Parsed:
    blocks: list[Block] = []
    levels: list[str] = []  # adornment styles in the order first seen
    path: list[tuple[int, str]] = []
    position = 0
    title = ""
    for start, end, name, style in _sections(text):
        if start < position:
            continue
        blocks += _rst_body(text, position, start, tuple(n for _, n in path))
        if style not in levels:
            levels.append(style)
        level = levels.index(style)
        path = [(lvl, n) for lvl, n in path if lvl < level] + [(level, name)]
        title = title or (name if level == 0 else "")
        blocks.append(Block(start, end, "heading", tuple(n for _, n in path)))
        position = end
    blocks += _rst_body(text, position, len(text), tuple(n for _, n in path))
    return Parsed(text, blocks, title)


def _rst_body(text: str, start: int, end: int, path: tuple[str, ...]) -> list[Block]:
    """Paragraphs, with the indented paragraphs after one ending in ``::`` as code."""
    blocks = []
    literal = False
    for block in paragraphs(text, start, end, path):
        body = text[block.start : block.end]
        indented = body[:1].isspace()
        blocks.append(
            Block(block.start, block.end, "code" if literal and indented else "text", path)
        )
        if not (literal and indented):
            literal = body.rstrip().endswith("::")
    return blocks
