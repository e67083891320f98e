"""GET /api/rag/examples: sample questions with their all-MiniLM-L6-v2 vectors, and the
server's query embedder, for the search page and for trying the API without a model."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from psycopg import AsyncConnection

from app.api.deps import authorize, db, get_settings
from app.api.openapi import ACCESS, errors
from app.api.schemas import ExamplesResponse
from app.auth import Scope
from app.demo import demo_queries, demo_space_name
from app.embedders import query_embedder_name
from app.ingest.store import load_spaces
from app.recency import RECENCY_FUNCTIONS
from app.settings import Settings

router = APIRouter(prefix="/api/rag", tags=["search"])


@router.get(
    "/examples",
    summary="Sample questions with query vectors (the demo corpus's model)",
    response_model=ExamplesResponse,
    responses=errors(*ACCESS),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def examples(
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    space = await demo_space_name(conn, settings)
    spaces = await load_spaces(conn)
    return {
        "ok": True,
        "space": space,
        "is_default_space": space == settings.default_space,
        "embedder": query_embedder_name(settings, spaces.get(settings.default_space)),
        "queries": demo_queries(),
        "recency_functions": list(RECENCY_FUNCTIONS),
        "keys_required": not settings.open_access,
    }
