"""The collection, profiles and spaces a search reads, loaded in one statement."""

from __future__ import annotations

from psycopg import AsyncConnection
from psycopg.rows import dict_row

from app.db.sqlfiles import queries
from app.errors import unknown_collection
from app.resources.profiles import DEFAULT_PROFILE, Profile, unknown_profile
from app.search.plan import SearchContext
from app.spaces import SpaceInfo
from app.weights import AUTO, CUSTOM


async def load_context(
    conn: AsyncConnection, collection: str, profile: str | None
) -> SearchContext:
    """The collection (404 when unknown), the default profile, the named one (an unknown
    name is a 400 listing the valid ones), and the registered spaces."""
    named = profile not in (None, CUSTOM, AUTO)
    wanted = [DEFAULT_PROFILE, profile] if named else [DEFAULT_PROFILE]
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(
            queries("profiles").search_context,
            {"names": wanted, "collection": collection},
            prepare=True,
        )
        row = await cursor.fetchone()
    assert row is not None
    if row["collection_id"] is None:
        raise unknown_collection(collection)
    found = {p["name"]: Profile.from_json(p) for p in row["profiles"] or []}
    spaces = tuple(SpaceInfo.from_row(s) for s in row["spaces"] or [])
    if named and profile not in found:
        raise await unknown_profile(conn, str(profile))
    return SearchContext(
        collection_id=row["collection_id"],
        default=found.get(DEFAULT_PROFILE, Profile(DEFAULT_PROFILE, 0, True)),
        profile=found.get(profile) if named and profile else None,
        spaces=spaces,
        parts=tuple(row["parts"] or ()),
    )
