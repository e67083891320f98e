"""The search engine's knobs and the request defaults a SQL client gets: their one home.

The service never changes the knobs; tests and benchmarks set them per plan to force a
path (``EngineKnobs`` in ``build_plan``). ``search_defaults_sql`` writes them, with the
request defaults of ``Settings``, into ``api.search_defaults()``, which
``api.rag_topk_weighted`` (the entry for SQL clients) reads; the service sends every value
itself.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

import orjson

from app.settings import Settings

Strategy = Literal["auto", "scan", "threshold"]


@dataclass(frozen=True)
class EngineKnobs:
    """How the engine chooses and bounds its work (sql/functions/choose.sql and
    threshold.sql say how each is used)."""

    # auto: choose per request; scan / threshold: force one
    strategy: Strategy = "auto"
    # a collection (or a filtered set) of at most this many chunks is scanned: scoring
    # them all costs less than any index walk
    scan_rows: int = 2000
    # the threshold search scores at most max(region_budget, 8 x depth) chunks of the
    # static region per round before reading deeper ...
    region_budget: int = 400
    # ... or max(region_budget, region_ratio x depth) when the plan has one weighted space
    # (its walk is read on, and its region scored in the statement that reads it)
    region_ratio: int = 16
    # ... and at most this many at the deepest level, then scans
    region_limit: int = 20_000
    # the deepest semantic read (chunks per space)
    max_depth: int = 2560
    # a query matching more chunks than this by keyword is scanned
    lex_limit: int = 20_000
    # chunks sampled to estimate how many pass a filter
    sample_rows: int = 2000
    # what reading one vector through a filtered index walk costs, in rows scored by a
    # filtered scan (measured at 1M x 384: about 4)
    walk_cost: float = 4.0
    # each ranking's depth under fusion rrf
    rrf_window: int = 100
    # a threshold search checks the walks it trusts against the collection's sample
    # before it closes (sql/functions/candidates.sql api.walk_missed); off only to measure
    # what the check catches
    walk_check: bool = True


DEFAULT_KNOBS = EngineKnobs()


def _setting_default(name: str) -> Any:
    return Settings.model_fields[name].default


def sql_defaults() -> dict[str, Any]:
    """What a SQL client gets for what it leaves out: the knobs, and the request defaults
    of the settings' documented defaults (a SQL client sets no environment)."""
    return {
        **asdict(DEFAULT_KNOBS),
        "ef_search": _setting_default("hnsw_ef_search"),
        "bm25": {"k1": _setting_default("bm25_k1"), "b": _setting_default("bm25_b")},
        "rrf_k": _setting_default("rrf_k"),
        "fusion": "weighted",
        "max_per_source": 0,  # no cap, where the service's default is 3
    }


def search_defaults_sql() -> str:
    text = orjson.dumps(sql_defaults(), option=orjson.OPT_SORT_KEYS).decode()
    return f"""
-- What api.rag_topk_weighted uses for the options a SQL client leaves out (generated from
-- app/search/knobs.py).
CREATE FUNCTION api.search_defaults()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT '{text}'::jsonb $$;
"""
