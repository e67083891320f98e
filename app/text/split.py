"""Splitting a document's text into chunks of at most ``max_tokens`` model tokens.

Structure first: every heading (and PDF page) starts a new chunk, and a chunk never spans
two sections, but for a section holding nothing but its heading (a title straight above
its first subheading): its heading goes on into the next section's chunk, under that
section's path, where it fits (alone it would be a chunk saying nothing, and a text of
headings alone would make a chunk of each).
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
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]»”’]*\s+")
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
            spans.append((position, match.start()))
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

    def _overlap_start(self, piece: Piece) -> tuple[int, int] | None:
        """Where the next chunk of the section starts (up to ``overlap`` tokens before the
        end of ``piece``, at a word's start) and how many tokens that takes."""
        if not self.overlap:
            return None
        offsets = self.tokenizer.offsets(self.text[piece.start : piece.end])
        first = len(offsets) - min(self.overlap, len(offsets) - 1)
        while first < len(offsets):
            begin = piece.start + offsets[first][0]
            if begin > piece.start and self.text[begin - 1].isspace():
                return begin, len(offsets) - first
            first += 1
        return None

    def pieces(self) -> Iterator[Piece]:
        queue = deque(u for block in self.blocks for u in self.units(block))
        chunk: list[_Unit] = []
        lead: tuple[int, int] | None = None  # the overlap the chunk starts with
        while queue:
            unit = queue.popleft()
            used = sum(u.tokens for u in chunk) + (lead[1] if lead else 0)
            fits = used + unit.tokens <= self.max
            new_section = unit.opens_section or bool(chunk and unit.path != chunk[-1].path)
            if chunk and (not fits or (new_section and not _headings_only(chunk))):
                queue.appendleft(unit)
                _hand_on_last_heading(chunk, queue)
                piece = self._emit(chunk, lead, queue)
                yield piece
                same = not queue[0].opens_section and queue[0].path == piece.path
                lead = self._overlap_start(piece) if same else None
                if lead and lead[1] + queue[0].tokens > self.max:
                    lead = None
                chunk = []
                continue
            chunk.append(unit)
        if chunk:
            yield self._emit(chunk, lead, queue)

    def _emit(self, chunk: list[_Unit], lead: tuple[int, int] | None, queue: deque[_Unit]) -> Piece:
        """The chunk as a piece, after checking its exact token count: over the limit (the
        counts of its parts need not add up), it gives up its overlap, then its last parts
        (back to the queue)."""
        while True:
            start = lead[0] if lead else chunk[0].start
            if self.count(start, chunk[-1].end) <= self.max:
                return Piece(start, chunk[-1].end, chunk[-1].path)
            if lead:
                lead = None
            elif len(chunk) > 1:
                queue.appendleft(chunk.pop())
            else:
                return self._cut_unit(chunk[0], queue)

    def _cut_unit(self, unit: _Unit, queue: deque[_Unit]) -> Piece:
        """The first ``max`` tokens of a unit whose text counts more on its own than it did
        as part of its block; the rest goes back to the queue."""
        offsets = self.tokenizer.offsets(self.text[unit.start : unit.end])
        end = unit.start + offsets[self.max - 1][1]
        rest = _trimmed(self.text, end, unit.end)
        if rest[1] > rest[0]:
            tokens = self.count(*rest)
            queue.appendleft(_Unit(rest[0], rest[1], tokens, unit.kind, unit.path))
        return Piece(unit.start, end, unit.path)


def _headings_only(chunk: list[_Unit]) -> bool:
    return all(unit.kind == "heading" for unit in chunk)


def _hand_on_last_heading(chunk: list[_Unit], queue: deque[_Unit]) -> None:
    """A run of headings ended because the text under the last does not fit beside
    them: that last heading goes back to open the next chunk, with its text."""
    if not _headings_only(chunk):
        return
    last = max(n for n, unit in enumerate(chunk) if n == 0 or unit.opens_section)
    if last:
        queue.extendleft(reversed(chunk[last:]))
        del chunk[last:]


def split(parsed: Parsed, sizing: Sizing, most: int | None = None) -> list[Piece]:
    """The document's chunks, in order; past ``most`` of them, TooManyPieces."""
    if sizing.max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    pieces = list(islice(_Splitter(parsed, sizing).pieces(), most + 1 if most else None))
    if most and len(pieces) > most:
        raise TooManyPieces(f"the text makes more than {most:,} chunks")
    return pieces
