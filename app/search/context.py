"""The profiles and spaces a search reads, loaded in one statement."""

from __future__ import annotations

from psycopg import AsyncConnection
from psycopg.rows import dict_row

from app.db.sqlfiles import queries
from app.resources.profiles import DEFAULT_PROFILE, Profile, unknown_profile
from app.search.plan import SearchContext, SpaceInfo
from app.weights import AUTO, CUSTOM


async def load_context(conn: AsyncConnection, profile: str | None) -> SearchContext:
    """The default profile, the named one (404-free: an unknown name is a 400 listing the
    valid ones), and the registered spaces."""
    named = profile not in (None, CUSTOM, AUTO)
    wanted = [DEFAULT_PROFILE, profile] if named else [DEFAULT_PROFILE]
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("profiles").search_context, {"names": wanted}, prepare=True)
        row = await cursor.fetchone()
    found = {p["name"]: Profile.from_json(p) for p in (row or {}).get("profiles") or []}
    spaces = tuple(SpaceInfo(s["name"], s["dims"]) for s in (row or {}).get("spaces") or [])
    if named and profile not in found:
        raise await unknown_profile(conn, str(profile))
    return SearchContext(
        default=found.get(DEFAULT_PROFILE, Profile(DEFAULT_PROFILE, 0, True)),
        profile=found.get(profile) if named and profile else None,
        spaces=spaces,
    )
