"""Splitting a document's text into chunks of at most ``max_tokens`` model tokens.

Structure first: every heading (and PDF page) starts a new chunk, and a chunk never spans
two sections, but for a section holding nothing but subsections (a title straight above
its first subheading): its heading goes on into its first subsection's chunk, under that
subsection's path, where it fits (alone it would be a chunk saying nothing).
Blocks are packed whole into chunks while they fit; a block too large for one chunk is
cut at blank lines, then lines, then (prose only) sentence ends, then spaces, and only
then between tokens, so code and tables are cut at line ends and kept whole where they
fit. Within a section, each chunk after the first starts with up to ``overlap`` tokens
of the one before (from the start of a word). Every chunk is a span of the text, so its
offsets say where it comes from, and no text but blank space is left out.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from app.text.blocks import Block, Kind, Parsed
from app.text.tokens import Tokenizer

# A span this many characters per token of the limit is cut before it is counted (never
# tokenizing a huge span at once).
CHARS_PER_TOKEN = 16
# a sentence's end: the blank after its mark and closing quotes or brackets (the group:
# the cut is there, the closers stay with their sentence)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]»”’]*(\s+)")
_SEPARATORS: dict[str, tuple[str | re.Pattern[str], ...]] = {
    "code": ("\n\n", "\n"),
    "table": ("\n\n", "\n"),
    "text": ("\n\n", "\n", _SENTENCE_END, " "),
    "heading": ("\n\n", "\n", _SENTENCE_END, " "),
}


class TooManyPieces(ValueError):
    """The text makes more chunks than the caller allows (it stops splitting there)."""


@dataclass(frozen=True)
class Sizing:
    tokenizer: Tokenizer
    max_tokens: int
    overlap: int = 0


@dataclass(frozen=True)
class Piece:
    """A chunk: ``text[start:end]`` under its heading path."""

    start: int
    end: int
    path: tuple[str, ...]


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    tokens: int
    kind: Kind
    path: tuple[str, ...]
    opens_section: bool = False


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _cut(
    text: str, start: int, end: int, separator: str | re.Pattern[str]
) -> list[tuple[int, int]]:
    """``text[start:end]`` cut at each separator (left out), blank pieces dropped."""
    spans, position = [], start
    if isinstance(separator, str):
        found = text.find(separator, start, end)
        while found != -1:
            spans.append((position, found))
            position = found + len(separator)
            found = text.find(separator, position, end)
    else:
        for match in separator.finditer(text, start, end):
            spans.append((position, match.start(match.lastindex or 0)))
            position = match.end()
    spans.append((position, end))
    return [s for s in (_trimmed(text, a, b) for a, b in spans) if s[1] > s[0]]


class _Splitter:
    def __init__(self, parsed: Parsed, sizing: Sizing) -> None:
        self.text = parsed.text
        self.blocks = parsed.blocks
        self.tokenizer = sizing.tokenizer
        self.max = sizing.max_tokens
        self.overlap = max(0, min(sizing.overlap, sizing.max_tokens - 1))

    def count(self, start: int, end: int) -> int:
        return len(self.tokenizer.offsets(self.text[start:end]))

    def units(self, block: Block) -> list[_Unit]:
        start, end = _trimmed(self.text, block.start, block.end)
        units = self._fit(start, end, block.kind, block.path)
        if units and block.kind == "heading":
            units[0] = _Unit(units[0].start, units[0].end, units[0].tokens, units[0].kind,
                             units[0].path, opens_section=True)  # fmt: skip
        return units

    def _fit(self, start: int, end: int, kind: Kind, path: tuple[str, ...]) -> list[_Unit]:
        start, end = _trimmed(self.text, start, end)
        if end <= start:
            return []
        if end - start <= self.max * CHARS_PER_TOKEN:
            tokens = self.count(start, end)
            if tokens <= self.max:
                return [_Unit(start, end, tokens, kind, path)]
        for separator in _SEPARATORS[kind]:
            spans = _cut(self.text, start, end, separator)
            if len(spans) > 1:
                return [u for a, b in spans for u in self._fit(a, b, kind, path)]
        if end - start > self.max * CHARS_PER_TOKEN:
            step = self.max * CHARS_PER_TOKEN // 2
            return [u for a in range(start, end, step)
                    for u in self._fit(a, min(end, a + step), kind, path)]  # fmt: skip
        return self._token_windows(start, end, kind, path)

    def _token_windows(
        self, start: int, end: int, kind: Kind, path: tuple[str, ...]
    ) -> list[_Unit]:
        offsets = self.tokenizer.offsets(self.text[start:end])
        starts = list(range(0, len(offsets), self.max))
        units = []
        for n, first in enumerate(starts):
            stop = start + offsets[starts[n + 1]][0] if n + 1 < len(starts) else end
            a, b = _trimmed(self.text, start + offsets[first][0] if n else start, stop)
            if b > a:
                units.append(_Unit(a, b, min(self.max, len(offsets) - first), kind, path))
        return units

    def _overlap_start(self, piece: Piece, floor: int) -> tuple[int, int] | None:
        """Where the next chunk of the section starts (up to ``overlap`` tokens before the
        end of ``piece``, at a word's start, not before ``floor``: where the section's
        text in the piece begins) and how many tokens that takes."""
        if not self.overlap:
            return None
        offsets = self.tokenizer.offsets(self.text[piece.start : piece.end])
        first = len(offsets) - min(self.overlap, len(offsets) - 1)
        while first < len(offsets):
            begin = piece.start + offsets[first][0]
            at_a_word = self.text[begin - 1].isspace() and not self.text[begin].isspace()
            if begin > max(piece.start, floor - 1) and at_a_word:
                return begin, len(offsets) - first
            first += 1
        return None

    def pieces(self) -> Iterator[Piece]:
        units = _Units(u for block in self.blocks for u in self.units(block))
        chunk: list[_Unit] = []
        lead: tuple[int, int] | None = None  # the overlap the chunk starts with
        while (unit := units.take()) is not None or chunk:
            if unit is not None:
                used = sum(u.tokens for u in chunk) + (lead[1] if lead else 0)
                goes_on = bool(chunk) and _goes_on(chunk, unit)
                if not chunk or (goes_on and used + unit.tokens <= self.max):
                    chunk.append(unit)
                    continue
                units.give_back(unit)
                if goes_on:  # but does not fit: a run of headings leaves the last to it
                    _hand_on_last_heading(chunk, units)
            piece = self._emit(chunk, lead, units)
            yield piece
            lead = self._lead(piece, chunk, units.peek())
            chunk = []

    def _lead(
        self, piece: Piece, chunk: list[_Unit], following: _Unit | None
    ) -> tuple[int, int] | None:
        """The overlap the chunk after ``piece`` (made of ``chunk``) starts with: none
        where a section starts, or where it would leave no room for the next unit."""
        if following is None or following.opens_section or following.path != piece.path:
            return None
        floor = max((u.start for u in chunk if u.opens_section), default=piece.start)
        lead = self._overlap_start(piece, floor)
        return None if lead and lead[1] + following.tokens > self.max else lead

    def _emit(self, chunk: list[_Unit], lead: tuple[int, int] | None, units: _Units) -> Piece:
        """The chunk as a piece, after checking its exact token count: over the limit (the
        counts of its parts need not add up), it gives up its overlap, then its last parts
        (given back, to go next)."""
        while True:
            start = lead[0] if lead else chunk[0].start
            if self.count(start, chunk[-1].end) <= self.max:
                return Piece(start, chunk[-1].end, chunk[-1].path)
            if lead:
                lead = None
            elif len(chunk) > 1:
                units.give_back(chunk.pop())
            else:
                return self._cut_unit(chunk[0], units)

    def _cut_unit(self, unit: _Unit, units: _Units) -> Piece:
        """The first ``max`` tokens of a unit whose text counts more on its own than it did
        as part of its block; the rest is given back."""
        offsets = self.tokenizer.offsets(self.text[unit.start : unit.end])
        end = unit.start + offsets[self.max - 1][1]
        rest = _trimmed(self.text, end, unit.end)
        if rest[1] > rest[0]:
            tokens = self.count(*rest)
            units.give_back(_Unit(rest[0], rest[1], tokens, unit.kind, unit.path))
        return Piece(unit.start, end, unit.path)


class _Units:
    """The text's units in order, each made when it is needed (a text refused for its
    chunks' count is not read to its end); units given back go first."""

    def __init__(self, made: Iterator[_Unit]) -> None:
        self.made = made
        self.back: deque[_Unit] = deque()

    def take(self) -> _Unit | None:
        return self.back.popleft() if self.back else next(self.made, None)

    def peek(self) -> _Unit | None:
        if not self.back and (unit := next(self.made, None)) is not None:
            self.back.append(unit)
        return self.back[0] if self.back else None

    def give_back(self, unit: _Unit) -> None:
        self.back.appendleft(unit)


def _goes_on(chunk: list[_Unit], unit: _Unit) -> bool:
    """Whether ``unit`` may join ``chunk``: in the same section, or opening a subsection
    of a section that has nothing but its heading (a title straight above its first
    subheading goes on with it)."""
    last = chunk[-1].path
    if not unit.opens_section and unit.path == last:
        return True
    headings_only = all(u.kind == "heading" for u in chunk)
    return headings_only and len(unit.path) > len(last) and unit.path[: len(last)] == last


def _hand_on_last_heading(chunk: list[_Unit], units: _Units) -> None:
    """A run of headings that the text under the last does not fit beside: that last
    heading is given back, to open the next chunk with its text."""
    if any(u.kind != "heading" for u in chunk):
        return
    last = max(n for n, unit in enumerate(chunk) if n == 0 or unit.opens_section)
    if last == 0:
        return
    for unit in reversed(chunk[last:]):
        units.give_back(unit)
    del chunk[last:]


def split(parsed: Parsed, sizing: Sizing, most: int | None = None) -> list[Piece]:
    """The document's chunks, in order; past ``most`` of them, TooManyPieces."""
    if sizing.max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    pieces = list(islice(_Splitter(parsed, sizing).pieces(), most + 1 if most else None))
    if most and len(pieces) > most:
        raise TooManyPieces(f"the text makes more than {most:,} chunks")
    return pieces
