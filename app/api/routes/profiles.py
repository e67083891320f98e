"""Weight profiles: read, create or update (a new version each time), delete."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from psycopg import AsyncConnection

from app.api.deps import authorize, body_bytes, db, shared_writer
from app.api.openapi import ACCESS, BODY, errors, json_body
from app.api.params import NamePath
from app.api.schemas import Deleted, ProfileResponse, ProfilesResponse, ProfileVersions
from app.auth import Scope
from app.resources import profiles
from app.resources.profiles import ProfileIn

router = APIRouter(prefix="/api/rag/profiles", tags=["profiles"])
Connection = Annotated[AsyncConnection, Depends(db)]


@router.get(
    "",
    summary="Every profile, current version",
    response_model=ProfilesResponse,
    responses=errors(*ACCESS),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def list_profiles(conn: Connection) -> Any:
    return {"ok": True, "profiles": [p.as_dict() for p in await profiles.list_profiles(conn)]}


@router.get(
    "/{name}",
    summary="One profile (?version=N for an older version)",
    response_model=ProfileResponse,
    responses=errors(*ACCESS, 400, 404),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def get_profile(
    name: NamePath,
    conn: Connection,
    version: Annotated[
        int | None, Query(ge=1, le=2**31 - 1, description="An older version.")
    ] = None,
) -> Any:
    return {"ok": True, "profile": (await profiles.get_profile(conn, name, version)).as_dict()}


@router.get(
    "/{name}/versions",
    summary="Every version of a profile, oldest first",
    response_model=ProfileVersions,
    responses=errors(*ACCESS, 400, 404),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def get_versions(name: NamePath, conn: Connection) -> Any:
    versions = await profiles.profile_versions(conn, name)
    return {"ok": True, "name": name, "versions": [p.as_dict() for p in versions]}


@router.put(
    "/{name}",
    summary="Create a profile, or write its next version (applies to the next query)",
    openapi_extra=json_body(ProfileIn),
    response_model=ProfileResponse,
    responses=errors(*ACCESS, *BODY),
    dependencies=[Depends(shared_writer)],
)
async def put_profile(
    name: NamePath, body: Annotated[bytes, Depends(body_bytes)], conn: Connection
) -> Any:
    profile = await profiles.put_profile(conn, name, profiles.parse_profile(body))
    return {"ok": True, "profile": profile.as_dict()}


@router.delete(
    "/{name}",
    summary="Delete a profile and its versions (not a built-in)",
    response_model=Deleted,
    responses=errors(*ACCESS, 400, 404, 409),
    dependencies=[Depends(shared_writer)],
)
async def delete_profile(name: NamePath, conn: Connection) -> Any:
    await profiles.delete_profile(conn, name)
    return {"ok": True, "deleted": name}
