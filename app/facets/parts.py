"""Facets of a split collection (app/parts.py): each part counted on its own, with every
value it holds (not only its top ones) and its share of the chunk budget, and the counts
summed per value. The top values are then the collection's, ordered as one node orders
them (most chunks first, ties by value in the database's order); ``distinct`` counts the
values of every part once; a number is exact when every part's was. The ``collection``
field counts every collection the caller reads, the same from any part."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from psycopg import AsyncConnection

from app.db.sqlfiles import queries
from app.facets.fields import FacetField

ALL_VALUES = 2**31 - 1
CountPart = Callable[[int, int, int], Awaitable[dict[str, Any]]]  # part, limit, budget


async def count_parts(
    conn: AsyncConnection, parts: tuple[int, ...], fields: list[FacetField], limit: int,
    max_chunks: int, count_part: CountPart,
) -> dict[str, Any]:  # fmt: skip
    """The facets of the collection whose parts these are, as api.facets returns them."""
    budget = math.ceil(max_chunks / len(parts))
    counted = [await count_part(part, ALL_VALUES, budget) for part in parts]
    facets = []
    for n, field in enumerate(fields):
        each = [c["facets"][n] for c in counted]
        if field.kind.kind == "collection":
            facets.append({**each[0], "values": each[0]["values"][:limit]})
        else:
            facets.append(await _summed(conn, each, limit, field.kind.kind == "metadata"))
    return {
        "chunks": sum(c["chunks"] for c in counted),
        "exact": all(c["exact"] for c in counted),
        "facets": facets,
    }


async def _summed(
    conn: AsyncConnection, each: list[dict[str, Any]], limit: int, json_values: bool
) -> dict[str, Any]:
    """One field's counts over the parts, its top ``limit`` values."""
    totals: dict[bytes, int] = {}
    values: dict[bytes, Any] = {}
    for facet in each:
        for entry in facet["values"]:
            key = orjson.dumps(entry["value"])
            totals[key] = totals.get(key, 0) + entry["chunks"]
            values[key] = entry["value"]
    order = await _value_order(conn, list(values), json_values)
    keys = sorted(totals, key=lambda key: (-totals[key], order[key]))[:limit]
    return {
        "values": [{"value": values[key], "chunks": totals[key]} for key in keys],
        "distinct": len(totals),
        "exact": all(facet.get("exact", True) for facet in each),
    }


async def _value_order(
    conn: AsyncConnection, keys: list[bytes], json_values: bool
) -> dict[bytes, int]:
    """Each value's position in the database's order of them (text, or jsonb for
    metadata values)."""
    q = queries("facets")
    if json_values:
        cursor = await conn.execute(q.jsonb_order, {"values": [k.decode() for k in keys]})
        return {orjson.dumps(orjson.loads(row[0])): n
                for n, row in enumerate(await cursor.fetchall())}  # fmt: skip
    texts = {orjson.loads(key): key for key in keys}
    cursor = await conn.execute(q.text_order, {"values": list(texts)})
    return {texts[row[0]]: n for n, row in enumerate(await cursor.fetchall())}
