"""What a search uses for each field its request leaves out: the ``default`` profile's
values where it sets them, else the settings'. Clients (the search page first) show
these before their first search instead of guessing them."""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection

from app.errors import NotFound
from app.recency import Recency
from app.resources.profiles import DEFAULT_PROFILE, Profile, get_profile
from app.search.request import MAX_DEPTH, MAX_K
from app.settings import Settings


async def _default_profile(conn: AsyncConnection) -> Profile:
    try:
        return await get_profile(conn, DEFAULT_PROFILE)
    except NotFound:  # as the search does: no stored default profile sets nothing
        return Profile(DEFAULT_PROFILE, 0, True)


def _recency(stored: dict[str, Any] | None) -> dict[str, Any]:
    recency = Recency.from_stored(stored) if stored else Recency()
    days = "half_life_days" if recency.function == "exponential" else "scale_days"
    return {"function": recency.function, days: recency.scale()}


def _first(value: float | None, fallback: float) -> float:
    return fallback if value is None else value


async def search_defaults(conn: AsyncConnection, settings: Settings) -> dict[str, Any]:
    profile = await _default_profile(conn)
    return {
        "ok": True,
        "k": settings.default_k,
        "max_k": MAX_K,
        "max_offset": MAX_DEPTH - MAX_K,
        "max_per_source": settings.search_diversity_max_per_source,
        "w_cos": profile.w_cos,
        "w_lex": profile.w_lex,
        "w_rec": _first(profile.w_rec, settings.default_w_rec),
        "w_sig": _first(profile.w_sig, settings.default_w_sig),
        "hybrid_vector_weight": _first(profile.hybrid_vector_weight, settings.hybrid_vector_weight),
        "recency": _recency(profile.recency),
        "fusion": "weighted",
        "rrf_k": settings.rrf_k,
        "low_confidence_score": settings.low_confidence_score,
    }
