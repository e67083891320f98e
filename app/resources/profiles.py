"""Weight profiles: named, versioned presets of the search weights.

A profile sets any of ``w_cos``, ``w_rec``, ``w_sig``, ``w_lex``, ``hybrid_vector_weight``,
``space_weights`` (by space name) and ``recency``; what it leaves unset falls back to the
``default`` profile (seeded from RAG_DEFAULT_* settings, then changed through the API). Every PUT
writes a new version; old versions stay readable. Profiles are read from the database
on every search, so a change applies to the very next query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict, Field

from app.db.sqlfiles import queries
from app.errors import BadRequest, Conflict, NotFound
from app.recency import Recency, recency_rule
from app.validation import Name, RuleMessages, Text, UnitFloat, parse_model
from app.weights import AUTO, BLEND_WEIGHT_RULES, CUSTOM, WeightLayer

DEFAULT_PROFILE = "default"


class ProfileIn(BaseModel):
    """Body of ``PUT /api/rag/profiles/{name}``: the whole new version."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{
                "description": "Fresh code answers",
                "w_cos": 0.6, "w_rec": 0.3, "w_sig": 0.1,
                "space_weights": {"default": 1.0},
                "recency": {"function": "exponential", "half_life_days": 14},
            }]
        },
    )  # fmt: skip

    description: Text = Field(default="", max_length=2000)
    w_cos: UnitFloat | None = None
    w_rec: UnitFloat | None = None
    w_sig: UnitFloat | None = None
    w_lex: UnitFloat | None = None
    hybrid_vector_weight: UnitFloat | None = Field(
        default=None, description="Vector share of relevance for queries with text (0..1)."
    )
    space_weights: dict[Name, UnitFloat] = Field(
        default_factory=dict, description="Weight per space name, each in [0,1]."
    )
    recency: Recency | None = None


PROFILE_RULES: RuleMessages = {
    **BLEND_WEIGHT_RULES,
    "space_weights": lambda path: f"{path}: space_weights maps space names to numbers in [0,1]",
    "recency": recency_rule,
}


def parse_profile(body: bytes | dict[str, Any]) -> ProfileIn:
    return parse_model(ProfileIn, body, PROFILE_RULES)


@dataclass(frozen=True)
class Profile:
    name: str
    version: int
    builtin: bool
    description: str = ""
    w_cos: float | None = None
    w_rec: float | None = None
    w_sig: float | None = None
    w_lex: float | None = None
    hybrid_vector_weight: float | None = None
    space_weights: dict[str, float] = field(default_factory=dict)
    recency: dict[str, Any] | None = None
    updated_at: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Profile:
        return cls(
            name=data["name"], version=data["version"], builtin=data.get("builtin", False),
            w_cos=data.get("w_cos"), w_rec=data.get("w_rec"), w_sig=data.get("w_sig"),
            w_lex=data.get("w_lex"), hybrid_vector_weight=data.get("hybrid_vector_weight"),
            space_weights=data.get("space_weights") or {},
            recency=data.get("recency"),
        )  # fmt: skip

    def layer(self) -> WeightLayer:
        return WeightLayer(
            w_cos=self.w_cos, w_rec=self.w_rec, w_sig=self.w_sig, w_lex=self.w_lex,
            hybrid_vector_weight=self.hybrid_vector_weight,
            space_weights=self.space_weights or None, recency=self.recency,
        )  # fmt: skip

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "version": self.version, "builtin": self.builtin,
            "description": self.description, "w_cos": self.w_cos, "w_rec": self.w_rec,
            "w_sig": self.w_sig, "w_lex": self.w_lex,
            "hybrid_vector_weight": self.hybrid_vector_weight, "space_weights": self.space_weights,
            "recency": self.recency, "updated_at": self.updated_at,
        }  # fmt: skip


def _profile(row: tuple[Any, ...]) -> Profile:
    name, version, builtin, description, w_cos, w_rec, w_sig, w_lex, share, spaces, recency, at = (
        row
    )
    return Profile(
        name=name, version=version, builtin=builtin, description=description, w_cos=w_cos,
        w_rec=w_rec, w_sig=w_sig, w_lex=w_lex, hybrid_vector_weight=share,
        space_weights=spaces or {}, recency=recency,
        updated_at=at.isoformat() if at else None,
    )  # fmt: skip


async def list_profiles(conn: AsyncConnection) -> list[Profile]:
    cursor = await conn.execute(queries("profiles").list_profiles)
    return [_profile(row) for row in await cursor.fetchall()]


async def get_profile(conn: AsyncConnection, name: str, version: int | None = None) -> Profile:
    q = queries("profiles")
    if version is None:
        cursor = await conn.execute(q.get_profile, (name,))
    else:
        cursor = await conn.execute(q.get_profile_version, (name, version))
    row = await cursor.fetchone()
    if row is None:
        what = f"profile {name!r}" + (f" version {version}" if version is not None else "")
        raise NotFound(f"no {what}", profile=name)
    return _profile(row)


async def profile_versions(conn: AsyncConnection, name: str) -> list[Profile]:
    cursor = await conn.execute(queries("profiles").profile_versions, (name,))
    rows = [_profile(row) for row in await cursor.fetchall()]
    if not rows:
        raise NotFound(f"no profile {name!r}", profile=name)
    return rows


async def put_profile(conn: AsyncConnection, name: str, body: ProfileIn) -> Profile:
    """Create the profile, or write its next version; returns the version written."""
    if name in (CUSTOM, AUTO):
        raise BadRequest(f"{name!r} is a query_type, not a profile name", field="name")
    if body.w_cos == 0 and body.w_rec == 0 and body.w_sig == 0 and not body.w_lex:
        raise BadRequest("w_cos, w_rec and w_sig 0 with no w_lex weigh every query 0: give "
                         "one of them a weight", field="w_cos")  # fmt: skip
    recency = body.recency.model_dump(exclude_none=True) if body.recency else None
    params = {
        "name": name, "description": body.description, "w_cos": body.w_cos,
        "w_rec": body.w_rec, "w_sig": body.w_sig, "w_lex": body.w_lex,
        "hybrid_vector_weight": body.hybrid_vector_weight,
        "space_weights": Jsonb(body.space_weights),
        "recency": Jsonb(recency) if recency else None,
    }  # fmt: skip
    async with conn.transaction():
        await conn.execute(queries("profiles").put_profile, params)
    return await get_profile(conn, name)


async def delete_profile(conn: AsyncConnection, name: str) -> None:
    profile = await get_profile(conn, name)
    if profile.builtin or name == DEFAULT_PROFILE:
        raise Conflict(f"the built-in profile {name!r} cannot be deleted", profile=name)
    await conn.execute(queries("profiles").delete_profile, (name,))


async def unknown_profile(conn: AsyncConnection, name: str) -> BadRequest:
    cursor = await conn.execute(queries("profiles").profile_names)
    valid = [row[0] for row in await cursor.fetchall()]
    return BadRequest(
        "invalid_profile",
        message=f"unknown profile {name!r}; valid profiles: {', '.join(valid)} (or auto, custom)",
        profile=name,
        valid_profiles=valid,
    )
