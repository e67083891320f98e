"""The demo corpus: Python standard-library documentation (PSF License 2.0), 310 chunks
with all-MiniLM-L6-v2 embeddings, loaded by ``ragsearch serve --demo``.

Chunk ages are stored relative to the load time, so recency always has fresh and old
chunks to tell apart. ``demo_queries.json`` holds sample questions with their vectors,
which the search page offers when the server has no embedder.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
from datetime import timedelta
from importlib.resources import files
from typing import Any

from psycopg import AsyncConnection

from app.db.pool import configure_connection
from app.db.sqlfiles import queries
from app.ingest.models import DocumentIn
from app.ingest.prepare import IngestRules, prepare_document
from app.ingest.store import load_spaces, store_documents
from app.parts import find_collection
from app.resources.collections import DEFAULT_COLLECTION
from app.resources.spaces import SpaceIn, register_space
from app.settings import Settings

log = logging.getLogger("ragsearch")

DEMO_DIMS = 384
DEMO_SPACE_FALLBACK = "minilm"


def demo_documents() -> list[dict[str, Any]]:
    with gzip.open(str(files("app.demo") / "demo_corpus.jsonl.gz"), "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def demo_queries() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        (files("app.demo") / "demo_queries.json").read_text(encoding="utf-8")
    )
    return data


def demo_chunk_id() -> str:
    """A chunk_id the demo corpus stores (for examples that name a chunk)."""
    first = demo_documents()[0]
    return str(first["chunks"][0].get("chunk_id") or f"{first['doc_id']}-chunk-0")


def _as_ingest_body(raw: dict[str, Any], space: str, now: Any) -> dict[str, Any]:
    chunks = []
    for chunk in raw["chunks"]:
        chunk = dict(chunk)
        age = chunk.pop("age_days")
        chunk["created_at"] = (now - timedelta(days=age)).isoformat()
        chunk["embeddings"] = {space: chunk.pop("embedding")}
        chunks.append(chunk)
    return {**raw, "chunks": chunks}


async def demo_space_name(conn: AsyncConnection, settings: Settings) -> str:
    """The default space when it has the demo model's 384 dimensions, else ``minilm``."""
    spaces = await load_spaces(conn)
    if spaces[settings.default_space].dims == DEMO_DIMS:
        return settings.default_space
    return DEMO_SPACE_FALLBACK


async def _demo_space(conn: AsyncConnection, settings: Settings) -> str:
    name = await demo_space_name(conn, settings)
    if name != settings.default_space and name not in await load_spaces(conn):
        space = SpaceIn(name=DEMO_SPACE_FALLBACK, dims=DEMO_DIMS, model="all-MiniLM-L6-v2")
        await register_space(conn, space, settings)
    return name


async def load_demo(conn: AsyncConnection, settings: Settings) -> int:
    """Store the demo corpus unless it is there already; the number of chunks stored."""
    raw_docs = demo_documents()
    first = raw_docs[0]["doc_id"]
    holding = (await find_collection(conn, DEFAULT_COLLECTION)).holding(first)
    cursor = await conn.execute(
        queries("documents").get_document, {"doc_id": first, "collection": holding}
    )
    if await cursor.fetchone():
        log.info("demo corpus already loaded")
        return 0
    space = await _demo_space(conn, settings)
    spaces = await load_spaces(conn)
    rules = IngestRules.from_settings(settings)
    prepared = [
        prepare_document(DocumentIn.model_validate(_as_ingest_body(raw, space, rules.now)),
                         spaces, rules)
        for raw in raw_docs
    ]  # fmt: skip
    result = await store_documents(conn, prepared, spaces)
    log.info("demo corpus loaded: %d documents, %d chunks", result.documents, result.chunks)
    return result.chunks


def load_demo_sync(url: str, settings: Settings) -> int:
    """``load_demo`` on a connection of its own (for the CLI's multi-worker start)."""

    async def run() -> int:
        async with await AsyncConnection.connect(url, autocommit=True) as conn:
            await configure_connection(conn)
            return await load_demo(conn, settings)

    return asyncio.run(run())
