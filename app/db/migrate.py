"""Schema migrations (Alembic) and the SQL functions that follow every upgrade."""

from __future__ import annotations

import logging
from functools import cache
from importlib.resources import as_file, files
from typing import Any

import psycopg
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from app.db.distribution import drop_routing_copies
from app.db.index_repair import repair_missing_indexes
from app.db.locks import PARTITIONS
from app.db.sqlfiles import function_scripts, functions_digest, queries
from app.settings import Settings

log = logging.getLogger("ragsearch")

MIGRATION_LOCK_ID = 7_261_520_001  # pg_advisory_xact_lock key held while migrating


def sqlalchemy_url(url: str) -> str:
    """The same server as a SQLAlchemy URL with the psycopg (3) driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def alembic_config(url: str, settings: Settings | None = None) -> Config:
    config = Config()
    config.attributes["settings"] = settings or Settings()
    with as_file(files("app.migrations")) as location:
        config.set_main_option("script_location", str(location))
    config.set_main_option("sqlalchemy.url", sqlalchemy_url(url).replace("%", "%%"))
    return config


@cache
def head_revision() -> str | None:
    config = alembic_config("postgresql://", Settings.model_construct())
    return ScriptDirectory.from_config(config).get_current_head()


def upgrade(url: str, settings: Settings | None = None) -> None:
    """Bring the database to the newest schema and re-apply the SQL functions (and on
    Citus, distribute what is new and route the searches: app/db/distribution.py)."""
    log.info("applying migrations")
    command.upgrade(alembic_config(url, settings), "head")


def apply_functions(conn: Any, distributed: bool = False) -> None:
    """Apply the function files and generated SQL on a DB-API connection (inside its
    transaction), unless the database has them already: re-creating them would change
    the search types' identities under any service using the database."""
    row = conn.execute(queries("meta").functions_digest).fetchone()
    if row is not None and row[0] == functions_digest():
        return
    log.info("applying the SQL functions")
    if distributed:
        drop_routing_copies(conn)
    # Load pgvector's library first, so that its settings (hnsw.*) named in function
    # definitions are known and checked.
    conn.execute(queries("meta").load_vector_library)
    for _name, text in function_scripts():
        conn.execute(text)
    conn.execute(queries("meta").ensure_sample_indexes)  # spaces registered before it
    conn.execute(queries("meta").record_functions, (functions_digest(),))


def ensure_default_space(url: str, settings: Settings) -> None:
    """Register the default embedding space from settings, or check it matches them."""
    q = queries("spaces")
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(q.space_dims, (settings.default_space,)).fetchone()
        if row is None:
            log.info(
                "registering default space %r (%d dims)",
                settings.default_space,
                settings.default_dims,
            )
            with conn.transaction():  # its turn among the changes to the partitions
                conn.execute(queries("collections").partitions_change, (PARTITIONS,))
                conn.execute(
                    q.register_space,
                    {"name": settings.default_space, "dims": settings.default_dims,
                     "model": settings.default_model, "description": "default embedding space",
                     "m": settings.hnsw_m, "ef_construction": settings.hnsw_ef_construction,
                     "kind": "dense", "metric": "cosine", "max_tokens": None},
                )  # fmt: skip
        elif row[0] != settings.default_dims:
            raise SystemExit(
                f"the default space {settings.default_space!r} has {row[0]} dimensions but "
                f"RAG_DEFAULT_DIMS is {settings.default_dims}; use a new RAG_DEFAULT_SPACE "
                "name or a new database"
            )


def ensure_default_profile(url: str, settings: Settings) -> None:
    """Seed the default profile from settings the first time (the API changes it later)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            queries("profiles").seed_default,
            {"name": "default", "w_rec": settings.default_w_rec,
             "w_sig": settings.default_w_sig, "w_lex": None},
        )  # fmt: skip


def prepare_database(url: str, settings: Settings) -> None:
    upgrade(url, settings)
    ensure_default_space(url, settings)
    ensure_default_profile(url, settings)
    repair_missing_indexes(url)
