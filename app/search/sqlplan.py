"""The plan as the SQL functions take it: one ``api.search_plan`` value.

``SqlPlan`` declares the type once: the SQL type is generated from it (``plan_type_sql``,
applied with the function files), and psycopg sends a ``SqlPlan`` as that type in binary
(``register_plan_types``, on every pooled connection). The search functions trust it: it
was validated and planned in Python (app/search/plan.py).

Fields in this order on purpose: the fixed-width ones that are never NULL come first, so
that statements reading them once per row (api.score and friends) find them at a fixed
offset; the variable-width and nullable ones follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Annotated, Any, get_type_hints

from psycopg import AsyncConnection, Connection
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types.composite import CompositeInfo, register_composite

from app.search.filters import SqlFilter, field_names
from app.search.metadata import JsonPath

JSONPATH_OID = 4072  # built in


@dataclass(frozen=True, slots=True)
class SqlPlan:
    collection_id: Annotated[int, "integer"]
    k: Annotated[int, "integer"]  # rows to rank: the page's end, or diversity's pool
    w_cos: Annotated[float, "float8"]  # the blend weights, summing to 1
    w_lex: Annotated[float, "float8"]
    w_rec: Annotated[float, "float8"]
    w_sig: Annotated[float, "float8"]
    rec_scale: Annotated[float, "float8"]  # days
    now_epoch: Annotated[float, "float8"]  # ages are measured from this instant (epoch s)
    max_per_source: Annotated[int, "integer"]  # 0: no cap
    keyword_only: Annotated[bool, "boolean"]  # w_lex > 0 and w_cos = 0
    filtered: Annotated[bool, "boolean"]  # a filter besides the collection
    bm25_k1: Annotated[float, "float8"]
    bm25_b: Annotated[float, "float8"]
    lex_avg_len: Annotated[float, "float8"]  # set in SQL (api.with_keywords)
    ef_search: Annotated[int, "integer"]
    rrf_k: Annotated[int, "integer"]
    rrf_window: Annotated[int, "integer"]  # the engine's knobs (app/search/knobs.py)
    scan_rows: Annotated[int, "integer"]
    region_budget: Annotated[int, "integer"]
    region_ratio: Annotated[int, "integer"]
    region_limit: Annotated[int, "integer"]
    max_depth: Annotated[int, "integer"]
    lex_limit: Annotated[int, "integer"]
    sample_rows: Annotated[int, "integer"]
    walk_cost: Annotated[float, "float8"]
    walk_check: Annotated[bool, "boolean"]
    row_from: Annotated[int, "integer"]  # response rows from this rank on (0-based)
    rec_function: Annotated[str, "text"]  # a decay of app/recency.py
    fusion: Annotated[str, "text"]  # weighted | rrf
    strategy: Annotated[str, "text"]  # auto | scan | threshold
    space_ids: Annotated[list[int], "integer[]"]  # the searched spaces, in request order
    space_names: Annotated[list[str], "text[]"]
    space_dims: Annotated[list[int], "integer[]"]
    space_weights: Annotated[list[float], "float8[]"]  # summing to 1
    space_kinds: Annotated[list[str], "text[]"]  # dense | sparse | multivector
    space_metrics: Annotated[list[str], "text[]"]  # cosine | inner_product
    vectors: Annotated[list[Any], "vector[]"]  # the query vector of each dense space
    sparse: Annotated[list[Any], "sparsevec[]"]  # ... of each sparse space
    tokens: Annotated[list[Any], "vector[]"]  # the query tokens of the multivector spaces,
    token_spaces: Annotated[list[int], "integer[]"]  # ... each with its space's index
    lex_terms: Annotated[list[str] | None, "text[]"]  # set in SQL: the query's terms
    lex_weights: Annotated[list[float] | None, "float8[]"]  # set in SQL: idf_t / sum idf
    filter: Annotated[SqlFilter, "api.search_filter"]
    min_score: Annotated[float | None, "float8"]
    min_similarity: Annotated[float | None, "float8"]
    query: Annotated[str | None, "text"]  # the query text, when it is scored (w_lex > 0)


@cache
def plan_columns() -> tuple[tuple[str, str], ...]:
    """(name, SQL type) of each field, in order."""
    hints = get_type_hints(SqlPlan, include_extras=True)
    return tuple((f.name, hints[f.name].__metadata__[0]) for f in fields(SqlPlan))


def plan_type_sql() -> str:
    columns = ",\n".join(f"    {name} {sql_type}" for name, sql_type in plan_columns())
    return f"""
-- A search, validated and planned once (app/search/sqlplan.py declares it; the service
-- builds it in app/search/plan.py, api.search_plan() for SQL clients).
CREATE TYPE api.search_plan AS (
{columns}
);
"""


class JsonPathBinaryDumper(Dumper):
    """jsonpath in binary: a version byte (1), then the text."""

    format = Format.BINARY
    oid = JSONPATH_OID

    def dump(self, obj: Any) -> bytes:
        return b"\x01" + str(obj).encode()


def _plan_sequence(plan: SqlPlan, _info: CompositeInfo) -> Sequence[Any]:
    return [getattr(plan, name) for name, _ in plan_columns()]


def _filter_sequence(found: SqlFilter, _info: CompositeInfo) -> Sequence[Any]:
    return found.as_sequence()


class StaleFunctions(RuntimeError):
    """The database's search types are not this version's (functions not re-applied)."""


def _check(info: CompositeInfo | None, expected: Sequence[str]) -> CompositeInfo:
    if info is None or list(info.field_names) != list(expected):
        name = info.name if info else "a search type"
        raise StaleFunctions(
            f"the database's {name} differs from this version's: apply the migrations "
            "(ragsearch migrate)"
        )
    return info


def _register(conn: Any, plan: CompositeInfo | None, found: CompositeInfo | None) -> None:
    conn.adapters.register_dumper(JsonPath, JsonPathBinaryDumper)
    filter_info = _check(found, ["collection_id", *field_names()])
    plan_info = _check(plan, [name for name, _ in plan_columns()])
    register_composite(filter_info, conn, SqlFilter, make_sequence=_filter_sequence)
    register_composite(plan_info, conn, SqlPlan, make_sequence=_plan_sequence)


async def register_plan_types(conn: AsyncConnection) -> None:
    """Send SqlPlan and SqlFilter as the database's types on this connection."""
    found = await CompositeInfo.fetch(conn, "api.search_filter")
    plan = await CompositeInfo.fetch(conn, "api.search_plan")
    _register(conn, plan, found)


def register_plan_types_sync(conn: Connection[Any]) -> None:
    _register(
        conn,
        CompositeInfo.fetch(conn, "api.search_plan"),
        CompositeInfo.fetch(conn, "api.search_filter"),
    )
