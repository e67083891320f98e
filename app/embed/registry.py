"""The embedders of a process, one per space configuration, made on first use.

A space's embedder is the one it records (rag.spaces.embedder). The default space,
when it records none, takes RAG_EMBEDDER: ``local`` the packaged all-MiniLM-L6-v2,
``none`` no embedder, ``auto`` the packaged model when it is installed and the space has
its 384 dimensions.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace

import httpx

from app.embed.base import Embedder
from app.embed.config import DEFAULT_PACKAGE, EmbedderConfig, local_default
from app.embed.http import OpenAIEmbedder
from app.embed.local import LocalEmbedder, LocalTokenEmbedder, library_installed
from app.embed.terms import TermEncoder
from app.errors import BadRequest
from app.settings import Settings
from app.spaces import SpaceInfo

PACKAGED_DIMS = 384


def packaged_model_installed() -> bool:
    return library_installed() and importlib.util.find_spec(DEFAULT_PACKAGE) is not None


def setting_embedder(settings: Settings, dims: int) -> EmbedderConfig | None:
    """What RAG_EMBEDDER gives the default space when it records no embedder."""
    if settings.embedder == "none":
        return None
    if settings.embedder == "local":
        if dims != PACKAGED_DIMS:
            raise BadRequest(
                f"RAG_EMBEDDER=local makes {PACKAGED_DIMS}-dimension vectors but the default "
                f"space has {dims}"
            )
        return local_default()
    if dims != PACKAGED_DIMS or not packaged_model_installed():
        return None
    return local_default()


def check_key(config: EmbedderConfig, settings: Settings) -> None:
    """A named key must be configured (its value is never looked at here)."""
    if config.key is not None and config.key not in settings.embedder_keys:
        raise BadRequest(
            f"embedder.key: RAG_EMBEDDER_KEYS has no key named {config.key!r}",
            field="embedder.key",
        )


FITTING = {"dense": ("local", "openai"), "multivector": ("local",), "sparse": ("bm25",)}


def check_fits(config: EmbedderConfig, space_kind: str) -> None:
    """The embedder makes values of the space's kind (400 naming the ones that do)."""
    if config.kind not in FITTING[space_kind]:
        kinds = " or ".join(FITTING[space_kind])
        raise BadRequest(
            f"embedder.kind: a {space_kind} space takes an embedder of kind {kinds}",
            field="embedder.kind",
        )


class Embedders:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._client: httpx.AsyncClient | None = None
        self._made: dict[tuple[SpaceInfo, str], Embedder] = {}

    def config_for(self, space: SpaceInfo) -> EmbedderConfig | None:
        if space.embedder is not None:
            return space.embedder
        if space.name == self.settings.default_space:
            return setting_embedder(self.settings, space.dims)
        return None

    def for_space(self, space: SpaceInfo) -> Embedder | None:
        config = self.config_for(space)
        return None if config is None else self.made(config, space)

    def made(self, config: EmbedderConfig, space: SpaceInfo) -> Embedder:
        key = (replace(space, embedder=None), config.model_dump_json())
        if key not in self._made:
            self._made[key] = self._make(config, space)
        return self._made[key]

    def _make(self, config: EmbedderConfig, space: SpaceInfo) -> Embedder:
        check_fits(config, space.kind)
        if config.kind == "bm25":
            return TermEncoder(config, space.name, space.dims)
        if config.kind == "local" and space.kind == "multivector":
            return LocalTokenEmbedder(config, space.name, space.dims, space.max_tokens or 1)
        if config.kind == "local":
            return LocalEmbedder(config, space.name, space.dims)
        check_key(config, self.settings)
        secret = self.settings.embedder_keys.get(config.key) if config.key else None
        if self._client is None:
            self._client = httpx.AsyncClient(limits=httpx.Limits(max_connections=64))
        key = secret.get_secret_value() if secret is not None else None
        return OpenAIEmbedder(config, space.name, space.dims, key, self._client)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
