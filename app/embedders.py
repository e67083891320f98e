"""Embedding questions on the server: each searched space's question vector is made by
that space's own embedder (app/embed/registry.py says which), with its query prefix."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from psycopg import AsyncConnection

from app.embed.base import QUESTION
from app.embed.local import LocalEmbedder
from app.embed.registry import Embedders
from app.ingest.store import load_spaces
from app.settings import Settings
from app.spaces import SpaceInfo
from app.vectors import SpaceValue

_SHARED: dict[int, tuple[Settings, Embedders]] = {}


def embedders_of(settings: Settings) -> Embedders:
    """The process's embedders for these settings (one set per settings object)."""
    held = _SHARED.get(id(settings))
    if held is None or held[0] is not settings:
        held = (settings, Embedders(settings))
        _SHARED[id(settings)] = held
    return held[1]


def embedding_spaces(settings: Settings, spaces: Iterable[SpaceInfo]) -> list[SpaceInfo]:
    """The spaces whose vectors the server makes, in registry order."""
    embedders = embedders_of(settings)
    return [space for space in spaces if embedders.config_for(space) is not None]


async def embed_question(
    settings: Settings, spaces: Iterable[SpaceInfo], text: str
) -> dict[str, SpaceValue]:
    """The question's value in each of ``spaces`` (all at once), where it has one (a
    question without a term has none in a bm25 space)."""
    embedders = embedders_of(settings)
    jobs = {}
    for space in spaces:
        embedder = embedders.for_space(space)
        if embedder is not None:
            jobs[space.name] = embedder.encode_query(text, QUESTION)
    values = await asyncio.gather(*jobs.values())
    return {name: value for name, value in zip(jobs, values, strict=True) if value is not None}


async def warm_up(settings: Settings, conn: AsyncConnection) -> None:
    """Load every local model a space uses and run it once now (seconds: torch, the
    model, its first pass) rather than in the first request that needs it."""
    for space in (await load_spaces(conn)).values():
        embedder = embedders_of(settings).for_space(space)
        if isinstance(embedder, LocalEmbedder):
            await embedder.encode(["warm up"])


def query_embedder_name(settings: Settings, space: SpaceInfo | None) -> str | None:
    """The model that embeds questions in ``space`` (looked up, not loaded), or None."""
    if space is None:
        return None
    config = embedders_of(settings).config_for(space)
    return None if config is None else config.model_name
