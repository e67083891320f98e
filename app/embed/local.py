"""Local embedders: a sentence-transformers model from files on this machine, loaded once
per process, run on the CPU in batches, one call at a time (the model uses every core).
A dense space takes the model's sentence vectors; a multivector space its token vectors
(the transformer's output for every token, special ones included, before pooling), each
scaled to length 1, the first ``max_tokens`` of a text kept.

It needs the ``embed`` extra (torch, sentence-transformers); the files come from a
package (``get_model_path()``) or a folder, never from a hub.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import os
import threading
import weakref
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from app.embed.base import (
    QUESTION,
    REQUEST,
    DenseEncoding,
    Patience,
    Tokenizer,
    checked_vectors,
    normalized,
)
from app.embed.config import DEFAULT_PACKAGE, EmbedderConfig
from app.embed.turns import Turns
from app.errors import BadRequest, Unavailable
from app.vectors import SpaceValue

MODEL_LIBRARIES = ("torch", "sentence_transformers")
R = TypeVar("R")


def library_installed() -> bool:
    """Whether the ``embed`` extra is installed (looked up, not imported)."""
    return all(importlib.util.find_spec(name) for name in MODEL_LIBRARIES)


# one of these is in every folder sentence-transformers (modules.json) or a Hugging Face
# model and its tokenizer (config.json) is read from
MODEL_FILES = ("modules.json", "config.json")


def _package_folder(package: str) -> str:
    """The folder a model package's ``get_model_path()`` gives (400 when the name is no
    installed package, or not one that ships a model)."""
    try:
        found = importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):  # a parent package missing
        found = False
    if not found:
        raise BadRequest(f"embedder.package: {package!r} is not installed on the server",
                         field="embedder.package")  # fmt: skip
    try:
        return str(importlib.import_module(package).get_model_path())
    except Exception:  # no get_model_path(), or one that fails: not a model package
        raise BadRequest(f"embedder.package: {package!r} ships no model (a module with "
                         "get_model_path())", field="embedder.package") from None  # fmt: skip


def model_source(config: EmbedderConfig) -> str:
    """The folder of the model's files (looked up without importing the model); 400 when
    it is no model's folder."""
    field = "embedder.path" if config.path is not None else "embedder.package"
    folder = config.path if config.path is not None else _package_folder(
        config.package or DEFAULT_PACKAGE)  # fmt: skip
    try:
        is_model = any((Path(folder) / name).is_file() for name in MODEL_FILES)
    except (OSError, ValueError):
        is_model = False
    if not is_model:
        raise BadRequest(f"{field}: no model folder {folder!r} on the server (a folder "
                         f"with the model's {' or '.join(MODEL_FILES)})", field=field)  # fmt: skip
    return folder


def check_local(config: EmbedderConfig) -> None:
    """A local embedder this server can run (400 naming what is missing)."""
    if not library_installed():
        raise BadRequest(
            "embedder: kind local needs the embed extra (torch, sentence-transformers) on "
            "the server", field="embedder.kind",
        )  # fmt: skip
    model_source(config)


def local_dimensions(folder: str) -> int | None:
    """The dimensions a sentence-transformers folder's model makes, read from its pooling
    layer's configuration (None when it does not say)."""
    for config in sorted(Path(folder).glob("*_Pooling/config.json")):
        value = json.loads(config.read_text()).get("word_embedding_dimension")
        return int(value) if isinstance(value, int) else None
    return None


# Texts go to the model at most this many at a time (a turn of about a second here): a
# question waits for one turn of a job's batch, not for the whole batch (256 texts: 10-20
# s on 2 cores, every tenant's questions held behind them). Who goes next: app/embed/turns.py.
TURN_TEXTS = 16


def _turns(texts: list[str]) -> list[list[str]]:
    return [texts[n : n + TURN_TEXTS] for n in range(0, len(texts), TURN_TEXTS)] or [texts]


class _LoadedModel:
    """One sentence-transformers model: one call at a time (a lock, for callers in any
    thread), and in an event loop its callers take turns (``Turns``)."""

    def __init__(self, source: str) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        self.model = SentenceTransformer(source, device="cpu")
        self.lock = threading.Lock()
        self._turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Turns] = (
            weakref.WeakKeyDictionary()
        )
        self.dims = _model_dims(self.model)
        self.max_tokens = int(self.model.max_seq_length)

    def turns(self) -> Turns:
        return self._turns.setdefault(asyncio.get_running_loop(), Turns())

    def encode(self, texts: list[str], batch_size: int, normalize: bool) -> np.ndarray:
        with self.lock:
            vectors = self.model.encode(
                texts, batch_size=batch_size, normalize_embeddings=normalize,
                convert_to_numpy=True, show_progress_bar=False,
            )  # fmt: skip
        return np.asarray(vectors, dtype=np.float32)

    def encode_tokens(self, texts: list[str], batch_size: int) -> list[np.ndarray]:
        with self.lock:
            rows = self.model.encode(
                texts, batch_size=batch_size, output_value="token_embeddings",
                show_progress_bar=False,
            )  # fmt: skip
        return [np.asarray(row.float().numpy(), dtype=np.float32) for row in rows]


async def in_turns(
    model: _LoadedModel, texts: list[str], patience: Patience, call: Callable[[list[str]], R]
) -> list[R]:
    """``call`` on the texts a turn at a time (in a thread, its turn come)."""
    done = []
    for part in _turns(texts):
        async with model.turns().turn(patience.rank, patience.owner):
            done.append(await asyncio.to_thread(call, part))
    return done


def _model_dims(model: Any) -> int:
    # sentence-transformers renamed this method in 6.x and warns on the old name.
    named = getattr(model, "get_embedding_dimension", None)
    return int(named() if named else model.get_sentence_embedding_dimension())


_loading = threading.Lock()


@lru_cache(maxsize=8)
def _model(source: str) -> _LoadedModel:
    return _LoadedModel(source)


def loaded_model(source: str) -> _LoadedModel:
    with _loading:  # one load, however many callers arrive while it runs
        return _model(source)


class HuggingFaceTokenizer:
    """The model's own (fast) tokenizer: offsets of its tokens, special tokens left out."""

    def __init__(self, tokenizer: Any) -> None:
        self._tokenizer = tokenizer

    def offsets(self, text: str) -> list[tuple[int, int]]:
        encoded = self._tokenizer(
            text, add_special_tokens=False, return_offsets_mapping=True, verbose=False
        )
        return [(int(a), int(b)) for a, b in encoded["offset_mapping"]]


class LocalEmbedder(DenseEncoding):
    def __init__(self, config: EmbedderConfig, space: str, dims: int) -> None:
        self.config = config
        self.space = space
        self.dims = dims
        self._source = model_source(config)

    def _loaded(self) -> _LoadedModel:
        if not library_installed():
            raise Unavailable(
                f"space {self.space!r} embeds with a local model but the embed extra is not "
                "installed on the server", retry_after=60,
            )  # fmt: skip
        return loaded_model(self._source)

    async def load(self) -> None:
        await asyncio.to_thread(self._loaded)

    @property
    def max_tokens(self) -> int:
        return self.config.max_tokens or self._loaded().max_tokens

    def tokenizer(self) -> Tokenizer | None:
        return HuggingFaceTokenizer(self._loaded().model.tokenizer)

    async def embed(self, texts: Sequence[str], patience: Patience = REQUEST) -> np.ndarray:
        model = await asyncio.to_thread(self._loaded)
        parts = await in_turns(model, list(texts), patience, lambda part: (
            model.encode(part, self.config.batch_size, self.config.normalize)))  # fmt: skip
        rows = parts[0] if len(parts) == 1 else np.concatenate(parts)
        return checked_vectors(self.space, rows, len(texts), self.dims)


class LocalTokenEmbedder(LocalEmbedder):
    """A multivector space's embedder: each text's token vectors, at most ``keep`` of them."""

    def __init__(self, config: EmbedderConfig, space: str, dims: int, keep: int) -> None:
        super().__init__(config, space, dims)
        self.keep = keep

    @property
    def cache_key(self) -> str | None:
        return f"{self.config.identity()}:tokens:{self.keep}"

    async def _tokens(
        self, texts: Sequence[str], patience: Patience = REQUEST
    ) -> list[SpaceValue | None]:
        model = await asyncio.to_thread(self._loaded)
        parts = await in_turns(model, list(texts), patience, lambda part: (
            model.encode_tokens(part, self.config.batch_size)))  # fmt: skip
        rows = [row for part in parts for row in part]
        return [self._checked(row[: self.keep]) for row in rows]

    def _checked(self, tokens: np.ndarray) -> np.ndarray:
        tokens = checked_vectors(self.space, tokens, len(tokens), self.dims)
        return normalized(tokens)

    async def encode(
        self, texts: Sequence[str], patience: Patience = REQUEST
    ) -> list[SpaceValue | None]:
        return await self._tokens(texts, patience)

    async def encode_query(self, text: str, patience: Patience = QUESTION) -> SpaceValue | None:
        return (await self._tokens([self.config.query_prefix + text], patience))[0]
