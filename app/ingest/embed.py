"""The embedding step of ingest: every chunk that has no vector in a space the server
embeds in gets one from that space's embedder, then goes on to be stored as a client's
vectors are (app/ingest/store.py).

A chunk is embedded as its space's document prefix, its document's title and heading
path on a line (``include_title``), then its text. Vectors are kept in
rag.embedding_cache by the embedder's identity and the hash of the collection's id with
that exact text, as soon as each batch is made: text embedded once is never embedded again
in that collection, by a re-sent document, another document, or a job resumed after a
crash. A collection's cache is its own: a hit on another tenant's text would tell its
sender (by the ``cached`` count, or the time) that this exact text is stored there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.db.connect import Connect
from app.db.sqlfiles import queries
from app.embed.base import REQUEST, Embedder, Patience
from app.embed.config import EmbedderConfig
from app.embedders import embedders_of
from app.ingest.prepare import ROW, PreparedChunk, PreparedDocument
from app.parts import find_collection
from app.settings import Settings
from app.spaces import SpaceInfo
from app.vectors import SpaceValue, cache_columns, cached_value

PATH_SEPARATOR = " › "


@dataclass
class EmbedCounts:
    embedded: int = 0  # texts the embedders' models were sent (bm25 weights: neither)
    cached: int = 0  # texts found in the cache

    def add(self, other: EmbedCounts) -> None:
        self.embedded += other.embedded
        self.cached += other.cached


Progress = Callable[[EmbedCounts], None]


def input_text(config: EmbedderConfig, title: str, path: list[str] | None, text: str) -> str:
    """The exact text a chunk is embedded as."""
    if not config.include_title:
        return config.document_prefix + text
    line = PATH_SEPARATOR.join(part for part in [title, *(path or [])] if part)
    return config.document_prefix + (f"{line}\n{text}" if line else text)


def embedding_input(config: EmbedderConfig, chunk: PreparedChunk) -> str:
    row = chunk.row
    return input_text(config, row[ROW["title"]], row[ROW["heading_path"]], row[ROW["chunk"]])


def wanting(docs: Sequence[PreparedDocument], space: str) -> list[PreparedChunk]:
    return [chunk for doc in docs for chunk in doc.chunks if space not in chunk.vectors]


def cache_hash(collection: int, text: str) -> bytes:
    """A text's key in the cache: the collection's id (never reused) and the text."""
    return hashlib.sha256(b"%d\x00" % collection + text.encode()).digest()


async def _cached(
    connect: Connect, key: str | None, hashes: list[bytes]
) -> dict[bytes, SpaceValue | None]:
    if key is None:
        return {}
    async with connect() as conn:
        cursor = await conn.execute(
            queries("documents").cached_vectors, {"embedder": key, "hashes": hashes}
        )
        rows = await cursor.fetchall()
    return {bytes(h): cached_value(vector, tokens) for h, vector, tokens in rows}


async def _remember(
    connect: Connect, key: str | None, hashes: list[bytes], values: list[SpaceValue | None]
) -> None:
    if key is None:  # bm25 weights are read off the text: nothing to keep
        return
    rows = [{"embedder": key, "hash": h, **cache_columns(value)}
            for h, value in zip(hashes, values, strict=True) if value is not None]  # fmt: skip
    if not rows:
        return
    async with connect() as conn, conn.cursor() as cursor:
        await cursor.executemany(queries("documents").cache_vector, rows)


async def embed_texts(
    connect: Connect, embedder: Embedder, texts: Sequence[tuple[int, str]],
    patience: Patience, progress: Progress | None,
) -> list[SpaceValue | None]:  # fmt: skip
    """Each (collection id, text)'s value: from that collection's cache, else made in
    batches (kept in the cache as each batch is made); the same text is sent once. A
    connection is taken for each read or write of the cache, none held while the embedder
    works."""
    config, key = embedder.config, embedder.cache_key
    hashes = [cache_hash(collection, text) for collection, text in texts]
    found = await _cached(connect, key, sorted(set(hashes)))
    cached = sum(h in found for h in hashes)
    if progress and cached:
        progress(EmbedCounts(cached=cached))
    missing: dict[str, list[bytes]] = {}  # each text to embed, with its collections' keys
    for h, (_, text) in zip(hashes, texts, strict=True):
        if h not in found and h not in missing.setdefault(text, []):
            missing[text].append(h)
    todo = list(missing.items())
    if texts:  # a write of several collections counts in the share of the one made first
        patience = patience.for_collection(min(collection for collection, _ in texts))
    step = config.batch_size * config.calls_at_once()  # a job's progress and cancel points
    for offset in range(0, len(todo), step):
        batch = todo[offset : offset + step]
        values = await embedder.encode([text for text, _ in batch], patience)
        keyed = [(h, value) for (_, keys), value in zip(batch, values, strict=True) for h in keys]
        await _remember(connect, key, [h for h, _ in keyed], [value for _, value in keyed])
        found.update(keyed)
        if progress and key is not None:  # bm25 weights are read off the text: no model call
            progress(EmbedCounts(embedded=len(batch)))
    return [found[h] for h in hashes]


async def _embed_space(
    connect: Connect, embedder: Embedder, chunks: list[tuple[int, PreparedChunk]],
    patience: Patience, progress: Progress | None,
) -> EmbedCounts:  # fmt: skip
    counts = EmbedCounts()

    def counted(step: EmbedCounts) -> None:
        counts.add(step)
        if progress:
            progress(step)

    texts = [(collection, embedding_input(embedder.config, chunk)) for collection, chunk in chunks]
    values = await embed_texts(connect, embedder, texts, patience, counted)
    for (_, chunk), value in zip(chunks, values, strict=True):
        if value is not None:  # None: nothing of the text fits the space (no term)
            chunk.vectors[embedder.space] = value
    return counts


async def _collection_ids(connect: Connect, docs: Sequence[PreparedDocument]) -> list[int]:
    """Each document's collection's id (a split collection's own, not its part's)."""
    names = {doc.collection for doc in docs}
    async with connect() as conn:
        ids = {name: (await find_collection(conn, name)).id for name in names}
    return [ids[doc.collection] for doc in docs]


async def fill_vectors(
    connect: Connect, docs: Sequence[PreparedDocument], spaces: dict[str, SpaceInfo],
    settings: Settings, patience: Patience = REQUEST, progress: Progress | None = None,
) -> EmbedCounts:  # fmt: skip
    """Give every chunk a vector in every space the server embeds in (nothing is stored
    but the cache; an embedder's failure raises before the documents are)."""
    counts = EmbedCounts()
    embedders = embedders_of(settings)
    collections: list[int] = []  # looked up once, when a chunk first needs a vector
    for space in spaces.values():
        embedder = embedders.for_space(space)
        wanted = [wanting([doc], space.name) for doc in docs] if embedder else []
        if embedder is None or not any(wanted):
            continue
        collections = collections or await _collection_ids(connect, docs)
        chunks = [(collection, chunk) for collection, doc_chunks in zip(collections, wanted,
                  strict=True) for chunk in doc_chunks]  # fmt: skip
        counts.add(await _embed_space(connect, embedder, chunks, patience, progress))
    return counts


def to_embed(
    docs: Sequence[PreparedDocument], spaces: dict[str, SpaceInfo], settings: Settings
) -> int:
    """How many chunk vectors the server would make for these documents (before the
    cache is asked)."""
    embedded = embedded_spaces(spaces, settings)
    return sum(len(wanting(docs, name)) for name in spaces if name in embedded)


def embedded_spaces(spaces: dict[str, SpaceInfo], settings: Settings) -> set[str]:
    """The spaces whose vectors the server makes (those with an embedder)."""
    embedders = embedders_of(settings)
    return {name for name, space in spaces.items() if embedders.config_for(space)}
