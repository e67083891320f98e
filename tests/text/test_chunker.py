"""Properties of the splitter, on Markdown documents hypothesis makes: chunks cover the
text in order, none is over the token limit, consecutive chunks of a section overlap by
at most the overlap asked for (and sections never), and a fenced code block that fits
in a chunk is never cut."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.embed.config import local_default
from app.embed.local import model_source
from app.text.markdown import parse_markdown
from app.text.plain import parse_plain
from app.text.split import Piece, Sizing, TooManyPieces, split
from app.text.tokens import LONGEST_TOKEN, WordTokenizer, model_files, tokenizer_at

pytestmark = pytest.mark.unit

WORDS = st.sampled_from(
    ("the", "coffee", "bean", "roast", "grinder", "espresso", "über", "naïve", "42", "x=1",
     "café-au-lait", "internationalization", "supercalifragilistic", ",", ";", "(", ")",
     "東京", "emoji🙂")
)  # fmt: skip
SENTENCE = st.lists(WORDS, min_size=1, max_size=30).map(lambda w: " ".join(w) + ".")
PARAGRAPH = st.lists(SENTENCE, min_size=1, max_size=12).map(" ".join)
HEADING = st.tuples(st.integers(1, 4), st.lists(WORDS, min_size=1, max_size=4)).map(
    lambda t: "#" * t[0] + " " + " ".join(t[1])
)
CODE_LINE = st.lists(WORDS, min_size=0, max_size=12).map(lambda w: "    ".join(w))
FENCE = st.lists(CODE_LINE, min_size=1, max_size=40).map(
    lambda ls: "```\n" + "\n".join(ls) + "\n```"
)
TABLE = st.lists(st.lists(WORDS, min_size=2, max_size=2), min_size=1, max_size=8).map(
    lambda rows: "| a | b |\n|---|---|\n" + "\n".join(f"| {r[0]} | {r[1]} |" for r in rows)
)
LONG_LINE = st.integers(50, 400).map(lambda n: " ".join(["word"] * n))
BLOCKS = st.lists(st.one_of(PARAGRAPH, HEADING, FENCE, TABLE, LONG_LINE), min_size=1, max_size=25)
DOCUMENT = BLOCKS.map("\n\n".join)


class LineTokenizer:
    """Words, marks and each line end: byte-level BPE tokenizers (RoBERTa's family) count
    line ends too, so a chunk's text can count more than its parts did."""

    def offsets(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in re.finditer(r"\w+|[^\w\s]|\n", text)]


class CountingTokenizer(WordTokenizer):
    def __init__(self) -> None:
        self.read = 0

    def offsets(self, text: str) -> list[tuple[int, int]]:
        self.read += len(text)
        return super().offsets(text)


TOKENIZERS = {"words": WordTokenizer(), "lines": LineTokenizer()}
_file, _ = model_files(model_source(local_default()))
if _file:
    TOKENIZERS["minilm"] = tokenizer_at(_file)


def _tokens(tokenizer: object, text: str) -> int:
    return len(tokenizer.offsets(text))  # type: ignore[attr-defined]


def _check_cover(text: str, pieces: list[Piece]) -> None:
    covered = bytearray(len(text))
    for piece in pieces:
        covered[piece.start : piece.end] = b"\x01" * (piece.end - piece.start)
    missing = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert not missing, f"left out: {text[missing[0] : missing[0] + 40]!r}"


def _check(text: str, pieces: list[Piece], sizing: Sizing) -> None:
    _check_cover(text, pieces)
    for piece in pieces:
        assert _tokens(sizing.tokenizer, text[piece.start : piece.end]) <= sizing.max_tokens
        assert text[piece.start : piece.end].strip() == text[piece.start : piece.end]
    for before, after in itertools.pairwise(pieces):
        assert after.start > before.start and after.end > before.end  # in order
        if after.start < before.end:  # an overlap: same section, within the size asked
            assert after.path == before.path
            shared = text[after.start : before.end]
            assert _tokens(sizing.tokenizer, shared) <= sizing.overlap
        if after.path != before.path:
            assert after.start >= before.end


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=DOCUMENT, size=st.integers(8, 120), overlap=st.integers(0, 30))
def test_chunks_cover_the_text_in_order_within_the_limit(name, text, size, overlap):
    sizing = Sizing(TOKENIZERS[name], size, min(overlap, size // 2))
    _check(text, split(parse_markdown(text), sizing), sizing)


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks=BLOCKS, size=st.integers(20, 160), overlap=st.integers(0, 20))
def test_a_fenced_block_that_fits_is_never_cut(name, blocks, size, overlap):
    text = "\n\n".join(blocks)
    sizing = Sizing(TOKENIZERS[name], size, min(overlap, size // 2))
    pieces = split(parse_markdown(text), sizing)
    for match in re.finditer(r"```\n.*?\n```", text, re.S):
        if _tokens(sizing.tokenizer, match.group()) <= size:
            assert any(p.start <= match.start() and match.end() <= p.end for p in pieces)


@settings(max_examples=40, deadline=None)
@given(text=DOCUMENT, size=st.integers(16, 64), overlap=st.integers(2, 8))
def test_long_sections_overlap_as_configured(text, size, overlap):
    tokenizer = TOKENIZERS["words"]
    long_text = "# Title\n\n" + " ".join(["sentence number one is here."] * 60) + "\n\n" + text
    sizing = Sizing(tokenizer, size, overlap)
    pieces = split(parse_markdown(long_text), sizing)
    first, second = pieces[0], pieces[1]
    assert second.start < first.end  # the same section: the second starts inside the first
    assert 1 <= _tokens(tokenizer, long_text[second.start : first.end]) <= overlap


def test_no_overlap_when_none_is_asked():
    text = " ".join(["alpha beta gamma."] * 200)
    pieces = split(parse_plain(text), Sizing(WordTokenizer(), 30, 0))
    assert all(b.start >= a.end for a, b in itertools.pairwise(pieces))
    _check(text, pieces, Sizing(WordTokenizer(), 30, 0))


@pytest.mark.parametrize("name", sorted(set(TOKENIZERS) - {"lines"}))  # the service's
def test_a_huge_line_without_spaces_is_cut_between_tokens(name):
    # the model counts such a word as one token: it made chunks of 300,000 characters
    text = "x" * 200_000
    sizing = Sizing(TOKENIZERS[name], 100, 10)
    pieces = split(parse_plain(text), sizing)
    _check(text, pieces, sizing)
    assert max(p.end - p.start for p in pieces) <= 100 * LONGEST_TOKEN


def test_a_heading_with_no_text_of_its_own_goes_on_into_the_next_chunk():
    """Before, "# Guide" alone was a chunk (it says nothing a search should find)."""
    text = "# Guide\n\n## Install\n\nRun the installer and follow its steps.\n\n## Use\n\nAsk."
    pieces = split(parse_markdown(text), Sizing(WordTokenizer(), 40, 0))
    assert [text[p.start : p.end] for p in pieces] == [
        "# Guide\n\n## Install\n\nRun the installer and follow its steps.",
        "## Use\n\nAsk.",
    ]
    assert [p.path for p in pieces] == [("Guide", "Install"), ("Guide", "Use")]


def test_an_empty_heading_does_not_go_on_into_a_section_not_its_own():
    text = "# A\n\nText of a.\n\n## Notes\n\n# B\n\nText of b."
    pieces = split(parse_markdown(text), Sizing(WordTokenizer(), 40, 0))
    assert [(text[p.start : p.end], p.path) for p in pieces] == [
        ("# A\n\nText of a.", ("A",)), ("## Notes", ("A", "Notes")),
        ("# B\n\nText of b.", ("B",))]  # fmt: skip


def test_no_text_is_lost_where_line_ends_count():
    """Before, the last chunk's units handed back (its text counting more than its parts)
    were never emitted: here "## FAQ" was lost."""
    text = "# Guide\n\n## Install\n\n## Use\n\n## FAQ"
    sizing = Sizing(LineTokenizer(), 12, 0)
    _check(text, split(parse_markdown(text), sizing), sizing)


def test_an_overlap_stays_in_its_section():
    text = "# Guide\n\n## Install\n\nRun.\n\n" + "word " * 12
    pieces = split(parse_markdown(text), Sizing(WordTokenizer(), 8, 7))
    install = text.index("## Install")
    assert all(p.start >= install for p in pieces[1:])
    assert pieces[1].start < pieces[0].end  # it does overlap, within the section


def test_a_text_refused_for_its_chunks_is_not_read_to_its_end():
    tokenizer = CountingTokenizer()
    text = "\n\n".join(f"Paragraph {n} says something." for n in range(20_000))
    with pytest.raises(TooManyPieces):
        split(parse_plain(text), Sizing(tokenizer, 8, 0), most=10)
    assert tokenizer.read < len(text) / 100


def test_a_heading_whose_next_section_does_not_fit_beside_it_stays_alone():
    text = "# " + "long title " * 10 + "\n\n## Part\n\n" + "words " * 20
    pieces = split(parse_markdown(text), Sizing(WordTokenizer(), 32, 0))
    chunks = [text[p.start : p.end] for p in pieces]
    assert chunks == [text[: text.index("\n")].strip(), "## Part\n\n" + ("words " * 20).strip()]
    assert pieces[1].path[-1] == "Part"


def test_a_text_is_refused_once_it_makes_more_chunks_than_allowed():
    text = "word " * 1000
    sizing = Sizing(WordTokenizer(), 8, 0)
    assert len(split(parse_plain(text), sizing, most=125)) == 125
    with pytest.raises(TooManyPieces, match="more than 124 chunks"):
        split(parse_plain(text), sizing, most=124)


def test_a_sentence_keeps_its_closing_quote_where_the_text_is_cut_after_it():
    """Before, a cut at a sentence's end left the closing quote or bracket in no chunk."""
    text = 'He said "Stop right now." Then the others left, all of them, at once. (Yes.) Done.'
    sizing = Sizing(WordTokenizer(), 8, 0)
    pieces = split(parse_plain(text), sizing)
    _check(text, pieces, sizing)
    assert text[pieces[0].start : pieces[0].end] == 'He said "Stop right now."'


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_markdown_reads_every_kind_of_line_end(end):
    # a bare "\r" (old Mac files) was a line markdown-it counted and the offsets did not:
    # an IndexError, a 500 for any Markdown holding one
    text = end.join(["# Title", "", "First paragraph.", "", "## Part", "", "More text.", ""])
    parsed = parse_markdown(text)
    sizing = Sizing(WordTokenizer(), 50, 0)
    pieces = split(parsed, sizing)
    _check(text, pieces, sizing)
    unix = split(parse_markdown(text.replace(end, "\n")), sizing)
    assert [(p.path, text[p.start : p.end].replace(end, "\n")) for p in pieces] == [
        (p.path, "\n".join(text.replace(end, "\n")[p.start : p.end].split("\n"))) for p in unix
    ]
