"""Counting tokens the way an embedding model does, to size chunks.

A local model's own tokenizer is read from its ``tokenizer.json`` (the fast tokenizers
library, no torch); an endpoint's model has none here, so its text is counted in words
and punctuation marks, which is near what WordPiece and BPE tokenizers make of English
(``max_tokens`` leaves room for the difference)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Protocol

_WORDS = re.compile(r"\w+|[^\w\s]")
# The most characters one token counts for: a model reads a longer word as one unknown
# token, and 300,000 characters of one "word" made a chunk of 300,000 characters; each
# 50 of them count as a token, so a chunk stays within max_tokens x 50 characters.
LONGEST_TOKEN = 50


def _bounded(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in spans:
        out += [(at, min(at + LONGEST_TOKEN, end)) for at in range(start, end, LONGEST_TOKEN)]
    return out


class Tokenizer(Protocol):
    def offsets(self, text: str) -> list[tuple[int, int]]:
        """Each token's (start, end) character offsets in ``text``."""


class WordTokenizer:
    """Words and punctuation marks, as an estimate of a model's tokens."""

    def offsets(self, text: str) -> list[tuple[int, int]]:
        return _bounded([match.span() for match in _WORDS.finditer(text)])


class FileTokenizer:
    """A Hugging Face ``tokenizer.json``, without special tokens, no truncation."""

    def __init__(self, path: str) -> None:
        from tokenizers import Tokenizer as HFTokenizer

        self._tokenizer = HFTokenizer.from_file(path)
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()

    def offsets(self, text: str) -> list[tuple[int, int]]:
        encoded = self._tokenizer.encode(text, add_special_tokens=False)
        return _bounded([(int(a), int(b)) for a, b in encoded.offsets])


@lru_cache(maxsize=8)
def tokenizer_at(path: str | None) -> Tokenizer:
    """The tokenizer in ``path`` (a tokenizer.json), or the word estimate."""
    return FileTokenizer(path) if path else WordTokenizer()


def model_files(folder: str) -> tuple[str | None, int | None]:
    """A sentence-transformers folder's tokenizer.json and input limit (tokens, with the
    two special tokens taken off), where it has them."""
    root = Path(folder)
    tokenizer = root / "tokenizer.json"
    limit = None
    config = root / "sentence_bert_config.json"
    if config.is_file():
        limit = json.loads(config.read_text()).get("max_seq_length")
    return (str(tokenizer) if tokenizer.is_file() else None,
            int(limit) - 2 if isinstance(limit, int) else None)  # fmt: skip
