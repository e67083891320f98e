"""The structure of a document's text, as the splitter reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["heading", "text", "code", "table"]


@dataclass(frozen=True)
class Block:
    """A span ``text[start:end]`` of one kind under a heading path (a heading's own path
    ends with itself). Code and tables are kept whole in a chunk where they fit."""

    start: int
    end: int
    kind: Kind
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Parsed:
    """A document read from its format: the text chunks are cut from (for HTML and PDF,
    the text extracted), its blocks in order, and the title it gives itself, if any."""

    text: str
    blocks: list[Block]
    title: str = ""


def line_starts(text: str) -> list[int]:
    """The offset of each line's first character (line 0 starts at 0)."""
    starts = [0]
    position = text.find("\n")
    while position != -1:
        starts.append(position + 1)
        position = text.find("\n", position + 1)
    return starts


def filled(text: str, blocks: list[Block]) -> list[Block]:
    """The blocks with every stretch of text between them that is not blank added as a
    text block (under the path of the block before it): nothing is left out."""
    result: list[Block] = []
    position = 0
    path: tuple[str, ...] = ()
    for block in sorted(blocks, key=lambda b: b.start):
        if block.start < position:  # overlapping: keep the earlier block
            continue
        if text[position : block.start].strip():
            result.append(Block(position, block.start, "text", path))
        result.append(block)
        position, path = block.end, block.path
    if text[position:].strip():
        result.append(Block(position, len(text), "text", path))
    return result


def paragraphs(text: str, start: int, end: int, path: tuple[str, ...]) -> list[Block]:
    """``text[start:end]`` as text blocks separated by blank lines."""
    blocks = []
    position = start
    while position < end:
        gap = text.find("\n\n", position, end)
        stop = end if gap == -1 else gap
        if text[position:stop].strip():
            blocks.append(Block(position, stop, "text", path))
        position = stop + 2 if gap != -1 else end
    return blocks
