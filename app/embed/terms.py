"""BM25 term weights over a local model's tokenizer vocabulary: a sparse space's ``bm25``
embedder.

A chunk's vector holds, for each term in it, its BM25 term-frequency weight

    tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / avg_len))

and a question's vector each of its distinct terms once; a search then weighs the
question's terms by their inverse document frequency in the searched collection
(app/search/terms.py), so that the inner product of the two is the chunk's BM25 score.
A term is a token id of the tokenizer (special tokens left out); a token without a letter
or a digit (punctuation) is none. ``avg_len`` is fixed by the space's configuration: a
chunk's weights are made once, when it is stored, and never depend on the chunks stored
after it.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from pgvector import SparseVector

from app.embed.base import QUESTION, REQUEST, Patience, Tokenizer
from app.embed.config import EmbedderConfig
from app.embed.local import model_source
from app.errors import BadRequest
from app.text.tokens import FileTokenizer, model_files
from app.vectors import SpaceValue


def _tokenizer_file(config: EmbedderConfig) -> str:
    if importlib.util.find_spec("tokenizers") is None:
        raise BadRequest("embedder: kind bm25 needs the embed extra (tokenizers) on the server",
                         field="embedder.kind")  # fmt: skip
    found, _ = model_files(model_source(config))
    if found is None:
        raise BadRequest("embedder: the model's folder has no tokenizer.json",
                         field="embedder.path" if config.path else "embedder.package")  # fmt: skip
    return found


@lru_cache(maxsize=8)
def _loaded(path: str) -> Any:
    from tokenizers import Tokenizer as HFTokenizer

    tokenizer = HFTokenizer.from_file(path)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    terms = [any(c.isalnum() for c in tokenizer.id_to_token(i) or "")
             for i in range(tokenizer.get_vocab_size())]  # fmt: skip
    return tokenizer, terms


def vocabulary_size(config: EmbedderConfig) -> int:
    """The number of terms a bm25 embedder's vectors range over (its space's dims)."""
    tokenizer, _ = _loaded(_tokenizer_file(config))
    return int(tokenizer.get_vocab_size())


class TermEncoder:
    def __init__(self, config: EmbedderConfig, space: str, dims: int) -> None:
        self.config = config
        self.space = space
        self.dims = dims
        self._path = _tokenizer_file(config)

    @property
    def max_tokens(self) -> int:
        return self.config.max_tokens or 1_000_000  # term counts have no input limit

    @property
    def cache_key(self) -> str | None:
        return None

    def tokenizer(self) -> Tokenizer | None:
        return FileTokenizer(self._path)

    def term_counts(self, texts: Sequence[str]) -> list[Counter[int]]:
        tokenizer, is_term = _loaded(self._path)
        encoded = tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [Counter(i for i in item.ids if is_term[i]) for item in encoded]

    def weights(self, counts: Counter[int]) -> SparseVector | None:
        if not counts:
            return None
        k1, b = self.config.bm25_k1, self.config.bm25_b
        norm = k1 * (1 - b + b * sum(counts.values()) / self.config.bm25_avg_len)
        return SparseVector({t: tf * (k1 + 1) / (tf + norm) for t, tf in counts.items()},
                            self.dims)  # fmt: skip

    async def encode(
        self, texts: Sequence[str], patience: Patience = REQUEST
    ) -> list[SpaceValue | None]:
        counts = await asyncio.to_thread(self.term_counts, texts)
        return [self.weights(c) for c in counts]  # None: a chunk without a term

    async def encode_query(self, text: str, patience: Patience = QUESTION) -> SpaceValue | None:
        """The question's distinct terms, each weighing 1 until the search weighs them by
        their rarity."""
        (counts,) = await asyncio.to_thread(self.term_counts, [text])
        return SparseVector(dict.fromkeys(counts, 1.0), self.dims) if counts else None
