"""GET /api/rag/search/defaults: the values a search uses for the fields it leaves out."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from psycopg import AsyncConnection

from app.api.deps import authorize, get_settings, read_db
from app.api.openapi import ACCESS, errors
from app.api.schemas import SearchDefaults
from app.auth import Scope
from app.resources.search_defaults import search_defaults
from app.settings import Settings

router = APIRouter(prefix="/api/rag", tags=["search"])


@router.get(
    "/search/defaults",
    summary="The values a search uses for the fields its request leaves out",
    response_model=SearchDefaults,
    responses=errors(*ACCESS),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def defaults(
    conn: Annotated[AsyncConnection, Depends(read_db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    """The default profile's values where it sets them, else the settings'. A query with
    text and no profile is classified (profile auto), which may choose another balance
    and k; the answer's weights and query_metadata say what a search used."""
    return await search_defaults(conn, settings)
