"""SQL generated from the service's registries, applied with the function files where
sql/functions/load_order.txt names it as ``@name``."""

from __future__ import annotations

from collections.abc import Callable

from app.recency import recency_sql
from app.search.filters import filter_type_sql
from app.search.knobs import search_defaults_sql
from app.search.sqlplan import plan_type_sql

GENERATORS: dict[str, Callable[[], str]] = {
    "recency": recency_sql,  # app/recency.py: the decays
    "search_filter": filter_type_sql,  # app/search/filters.py: the filters
    "search_plan": plan_type_sql,  # app/search/sqlplan.py: the plan's type
    "search_defaults": search_defaults_sql,  # app/search/knobs.py: knobs and SQL defaults
}


def generated_sql(name: str) -> str:
    try:
        return GENERATORS[name]()
    except KeyError:
        message = f"sql/functions/load_order.txt names @{name}, which nothing generates"
        raise ValueError(message) from None
