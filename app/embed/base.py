"""What every embedder is, and the checks its answers pass before anything is stored.

An embedder makes one space's values from text, in the shape of the space's kind
(app/vectors.py): a vector (dense: app/embed/local.py, app/embed/http.py), token vectors
(multivector: app/embed/local.py) or term weights (sparse: app/embed/terms.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

import numpy as np

from app.embed import turns
from app.embed.config import EmbedderConfig
from app.errors import BadGateway
from app.vectors import SpaceValue

Purpose = Literal["query", "document"]


@dataclass(frozen=True)
class Patience:
    """How long a caller waits for an embedder that is down or slow: a request waits
    little and answers 503 with Retry-After; a job retries with back-off."""

    retries: int | None  # None: the embedder's own setting
    max_wait: float  # seconds, one wait between tries
    rank: int  # who goes first of those waiting for the embedder (app/embed/turns.py)
    owner: int | None = None  # the collection a write or job serves: its share of the calls

    def for_collection(self, collection: int) -> Patience:
        return replace(self, owner=collection)


QUESTION = Patience(retries=1, max_wait=2.0, rank=turns.QUESTION)
REQUEST = Patience(retries=1, max_wait=2.0, rank=turns.WRITE)
JOB = Patience(retries=None, max_wait=60.0, rank=turns.BACKGROUND)


class Tokenizer(Protocol):
    def offsets(self, text: str) -> list[tuple[int, int]]:
        """Each token's (start, end) character offsets in ``text``."""


class Embedder(Protocol):
    config: EmbedderConfig
    space: str
    dims: int

    @property
    def max_tokens(self) -> int: ...

    @property
    def cache_key(self) -> str | None:
        """What the embedding cache keeps its values under (None: not kept, being cheaper
        to make again than to read)."""

    def tokenizer(self) -> Tokenizer | None: ...

    async def encode(
        self, texts: Sequence[str], patience: Patience = REQUEST
    ) -> list[SpaceValue | None]:
        """Chunks' values, one per text (the document prefix already on them; None: the
        text has nothing this space can hold, e.g. no term)."""

    async def encode_query(self, text: str, patience: Patience = QUESTION) -> SpaceValue | None:
        """A question's value (None: it has nothing this space can match)."""


class DenseEncoding:
    """encode and encode_query for an embedder of one vector per text."""

    config: EmbedderConfig

    @property
    def cache_key(self) -> str | None:
        return self.config.identity()

    async def embed(self, texts: Sequence[str], patience: Patience = REQUEST) -> np.ndarray:
        raise NotImplementedError

    async def encode(
        self, texts: Sequence[str], patience: Patience = REQUEST
    ) -> list[SpaceValue | None]:
        return list(await self.embed(texts, patience))

    async def encode_query(self, text: str, patience: Patience = QUESTION) -> SpaceValue | None:
        rows = await self.embed([self.config.query_prefix + text], patience)
        row: np.ndarray = rows[0]
        return row


def checked_vectors(space: str, rows: np.ndarray, count: int, dims: int) -> np.ndarray:
    """The embedder's answer as float32 rows, or a 502 saying what is wrong with it."""
    if rows.ndim != 2 or rows.shape[0] != count:
        raise BadGateway(
            f"the embedder of space {space!r} answered {rows.shape[0] if rows.ndim else 0} "
            f"vectors for {count} texts; nothing was stored", space=space,
        )  # fmt: skip
    if rows.shape[1] != dims:
        raise BadGateway(
            f"the embedder of space {space!r} answered vectors of {rows.shape[1]} dimensions; "
            f"the space has {dims}; nothing was stored", space=space,
        )  # fmt: skip
    rows = rows.astype(np.float32, copy=False)
    if not np.isfinite(rows).all():
        raise BadGateway(
            f"the embedder of space {space!r} answered a vector holding NaN or Infinity; "
            "nothing was stored", space=space,
        )  # fmt: skip
    norms = np.linalg.norm(rows, axis=1)
    if (norms < 1e-9).any():
        raise BadGateway(
            f"the embedder of space {space!r} answered a zero vector; nothing was stored",
            space=space,
        )
    return rows


def normalized(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    result: np.ndarray = rows / norms
    return result.astype(np.float32)
