"""Re-embedding a space (``POST /api/rag/spaces/{name}/reembed``): its next embedder
recorded, a shadow table made, and the job that fills it queued (app/jobs/reembed.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict, Field

from app.db.sqlfiles import queries
from app.embed.config import EmbedderConfig
from app.embed.local import local_dimensions, model_source
from app.embedders import embedders_of
from app.errors import BadRequest, Conflict, NotFound
from app.jobs.store import create_job, job_view
from app.resources.collection_limit import change_partitions
from app.resources.spaces import check_embedder
from app.settings import Settings
from app.spaces import SpaceInfo
from app.validation import parse_model


class ReembedIn(BaseModel):
    """Body of ``POST /api/rag/spaces/{name}/reembed``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"embedder": {"kind": "local"}}]},
    )

    embedder: EmbedderConfig | None = Field(
        default=None, description="The embedder to move to (default: the space's own, again)."
    )
    dims: int | None = Field(
        default=None, ge=1, le=2000,
        description="The new model's dimensions (default: what the embedder says it makes, "
        "else the space's).",
    )  # fmt: skip


REEMBED_RULES = {"dims": "dims must be an integer in 1..2000"}


def parse_reembed(body: bytes) -> ReembedIn:
    return parse_model(ReembedIn, body or b"{}", REEMBED_RULES)


def _dims(config: EmbedderConfig, given: int | None, space: SpaceInfo) -> int:
    if given is not None:
        return given
    if config.dimensions is not None:
        return config.dimensions
    if config.kind == "local":
        return local_dimensions(model_source(config)) or space.dims
    return space.dims


async def start_reembed(
    conn: AsyncConnection, name: str, request: ReembedIn, settings: Settings
) -> dict[str, Any]:
    q = queries("reembed")
    async with conn.transaction():
        async with conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(q.reembed_space, {"name": name})
            row = await cursor.fetchone()
        if row is None:
            raise NotFound(f"no space named {name!r}", space=name)
        running = await (await conn.execute(q.reembed_running, {"space": row["id"]})).fetchone()
        if running is not None:
            raise Conflict(f"space {name!r} is being re-embedded by job {running[0]}",
                           job=running[0])  # fmt: skip
        space = SpaceInfo.from_row(row)
        if space.kind != "dense":
            raise BadRequest(f"space {name!r} is {space.kind}: only dense spaces are re-embedded",
                             field="space")  # fmt: skip
        config = request.embedder or embedders_of(settings).config_for(space)
        if config is None:
            raise BadRequest(f"space {name!r} has no embedder: give one", field="embedder")
        dims = _dims(config, request.dims, space)
        await asyncio.to_thread(check_embedder, config, space.kind, dims, settings)
        await conn.execute(q.set_embedder_next, {"space": space.id, "next": Jsonb(config.stored())})
        await change_partitions(conn)  # a partition in every collection
        await conn.execute(q.create_shadow, {"space": space.id, "dims": dims})
        job = await create_job(conn, "reembed", None, [], {"dims": dims}, space=space.id)
    return await job_view(conn, job, with_items=False)
