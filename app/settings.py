"""Every setting of the service, read once from the environment.

Names are the environment variables (``DATABASE_URL``, ``RAG_*``);
docs/operating/settings.md lists them with their defaults (tests/test_docs.py holds the two
equal). Tests and the CLI build their own ``Settings`` objects.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

import platformdirs
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.validation import NAME_PATTERN, CollectionName


class KeyGrant(BaseModel):
    """One RAG_COLLECTION_KEYS entry: the collections a key may use, and whether it writes."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field must not go unnoticed

    collections: list[CollectionName] = Field(min_length=1)
    write: bool = False


DEFAULT_PORTS = {"http": 80, "https": 443}


def normalized_origin(value: str) -> str | None:
    """``scheme://host[:port]`` lower-cased, with the scheme's default port left out (as
    browsers send it); None when ``value`` is not such an origin."""
    parts = urlsplit(value.strip())
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username is not None:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = port is None or port == DEFAULT_PORTS[parts.scheme]
    return f"{parts.scheme}://{host}" + ("" if default else f":{port}")


def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("ragsearch")) / "pgdata"


def _default_cluster_dir() -> Path:
    return Path(platformdirs.user_data_dir("ragsearch")) / "cluster"


def _default_citus_cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("ragsearch")) / "citus"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAG_", extra="ignore", populate_by_name=True)

    # --- database ------------------------------------------------------------------
    database_url: str | None = Field(
        default=None, validation_alias=AliasChoices("DATABASE_URL", "database_url")
    )
    database_read_urls: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        validation_alias=AliasChoices("DATABASE_READ_URLS", "database_read_urls"),
    )
    max_replica_lag_ms: float = Field(default=5000.0, gt=0)
    db_transaction_pooler: bool = False  # DATABASE_URL is pgbouncer in transaction mode
    data_dir: Path = Field(default_factory=_default_data_dir)
    migrate_on_start: bool = True
    # seconds serve, migrate and mcp wait for DATABASE_URL's database to accept
    # connections before they stop, saying why (a server still starting is waited for)
    db_start_wait_s: float = Field(default=30.0, ge=0, le=3600)
    pool_size: int = Field(default=5, ge=1, le=200)
    pool_timeout: float = Field(default=5.0, gt=0)
    # requests one key / one collection may have on the database at once (429 past it)
    key_concurrency: int | None = Field(default=None, ge=1)  # unset: RAG_POOL_SIZE - 1
    collection_concurrency: int | None = Field(default=None, ge=1)  # unset: likewise
    statement_timeout_ms: int = Field(default=30_000, ge=0)
    request_timeout: float = Field(default=120.0, gt=0, le=86_400)
    pg_shared_buffers: str = "1GB"
    pg_work_mem: str = "64MB"
    pg_maintenance_work_mem: str = "2GB"
    # the embedded server's (and the local cluster's nodes') lock table:
    # max_locks_per_transaction x connections locks
    pg_max_locks_per_transaction: int = Field(default=512, ge=64, le=65_536)
    # collections (each part of a split one counts) the service creates; unset: what the
    # database's lock table allows (app/resources/collection_limit.py)
    max_collections: int | None = Field(default=None, ge=1)
    db_check_interval: float = Field(default=1.0, gt=0, le=60)
    db_restart_max_delay: float = Field(default=5.0, gt=0, le=300)
    # re-analyze a collection written through the API once its chunk count moved by more
    # than both of these since its last ANALYZE (sql/functions/statistics.sql)
    analyze_min_change: int = Field(default=1000, ge=1)
    analyze_change_ratio: float = Field(default=0.5, ge=0, le=100)

    # --- local Citus cluster (ragsearch cluster, app/cluster) ----------------------
    cluster_dir: Path = Field(default_factory=_default_cluster_dir)
    cluster_port: int = Field(default=9700, ge=1024, le=65000)  # workers: the next ports
    citus_source: Path | None = None  # unset: shared/vendor/citus above the checkout
    citus_cache_dir: Path = Field(default_factory=_default_citus_cache_dir)
    # --- Citus (app/db/distribution.py) --------------------------------------------
    citus: Literal["auto", "on", "off"] = "auto"  # auto: when the database has citus
    citus_shard_count: int = Field(default=8, ge=1, le=256)  # shard groups of a new schema

    # --- embedding spaces and indexes ---------------------------------------------
    default_space: Annotated[str, Field(pattern=NAME_PATTERN)] = "default"
    default_dims: int = Field(default=384, ge=1, le=4000)
    default_model: str = "all-MiniLM-L6-v2"
    hnsw_m: int = Field(default=16, ge=2, le=100)
    hnsw_ef_construction: int = Field(default=200, ge=4, le=1000)
    hnsw_ef_search: int = Field(default=100, ge=1, le=1000)

    # --- search --------------------------------------------------------------------
    default_w_rec: float = Field(default=0.1, ge=0, le=1)
    default_w_sig: float = Field(default=0.1, ge=0, le=1)
    default_k: int = Field(default=5, ge=1, le=50)
    hybrid_vector_weight: float = Field(default=0.5, ge=0, le=1)
    bm25_k1: float = Field(default=1.2, gt=0, le=10)
    bm25_b: float = Field(default=0.75, ge=0, le=1)
    search_diversity_max_per_source: int = Field(default=3, ge=0, le=1000)
    rrf_k: int = Field(default=60, ge=1, le=100_000)
    low_confidence_score: float = Field(default=0.25, ge=0, le=1)
    embedder: Literal["auto", "local", "none"] = "auto"
    facet_max_chunks: int = Field(default=100_000, ge=1, le=100_000_000)  # read per count

    # --- reranking (search_documents over MCP) --------------------------------------
    reranker_url: str | None = None
    reranker_model: str | None = None
    reranker_weight: float = Field(default=0.5, ge=0, le=1)
    reranker_candidates: int = Field(default=50, ge=1, le=50)
    reranker_timeout: float = Field(default=10.0, gt=0)

    # --- ingest --------------------------------------------------------------------
    max_chunks_per_request: int = Field(default=1000, ge=1)
    max_body_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)  # a document's
    max_search_body_bytes: int = Field(default=1024 * 1024, ge=1024)  # any other body
    ingest_bodies_max_bytes: int = Field(default=128 * 1024 * 1024, ge=1024)  # held at once
    infer_tags: bool = True

    # --- documents in: embedders, splitting, files, jobs ------------------------------
    embedder_keys: dict[str, SecretStr] = Field(default_factory=dict)  # name -> API key
    chunk_tokens: int = Field(default=200, ge=8, le=8192)  # a split chunk's size
    chunk_overlap_tokens: int = Field(default=20, ge=0, le=4096)
    max_document_chars: int = Field(default=10_000_000, ge=1000)  # text of one document
    max_text_chunks: int = Field(default=20_000, ge=1)  # the chunks one text splits into
    max_html_depth: int = Field(default=512, ge=8, le=100_000)
    sync_embed_max_chunks: int = Field(default=256, ge=0)  # more: the request runs as a job
    sync_max_bytes: int = Field(default=1024 * 1024, ge=0)  # a larger upload runs as a job
    max_upload_bytes: int = Field(default=512 * 1024 * 1024, ge=1024)  # one upload request
    max_file_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)  # one file (unpacked)
    max_upload_files: int = Field(default=10_000, ge=1)  # files of one upload, zips' members in
    job_workers: int = Field(default=2, ge=0, le=64)
    job_lease_seconds: float = Field(default=30.0, ge=1, le=3600)
    job_turn_seconds: float = Field(default=10.0, gt=0, le=86400)  # then another's job may go
    max_jobs_per_collection: int = Field(default=100, ge=1)  # queued or running at once

    # --- access --------------------------------------------------------------------
    api_keys: Annotated[list[str], NoDecode] = Field(default_factory=list)
    read_keys: Annotated[list[str], NoDecode] = Field(default_factory=list)
    collection_keys: dict[str, KeyGrant] = Field(default_factory=dict)
    metrics_keys: Annotated[list[str], NoDecode] = Field(default_factory=list)
    mcp_key: SecretStr | None = None  # the key every MCP tool acts with
    allowed_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)

    # --- serving -------------------------------------------------------------------
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    workers: int = Field(default=1, ge=1, le=64)
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    log_format: Literal["text", "json"] = "text"
    access_log: bool = True
    header_timeout: float = Field(default=10.0, gt=0, le=3600)
    body_timeout: float = Field(default=30.0, gt=0, le=3600)
    slow_search_ms: float = Field(default=1000.0, gt=0)
    metrics_public: bool = False
    demo: bool = False

    @field_validator(
        "api_keys", "read_keys", "metrics_keys", "allowed_origins", "database_read_urls",
        mode="before",
    )  # fmt: skip
    @classmethod
    def _split_keys(cls, value: object) -> object:
        if isinstance(value, str):
            return [key.strip() for key in value.split(",") if key.strip()]
        return value

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: list[str]) -> list[str]:
        origins = []
        for given in value:
            origin = normalized_origin(given)
            if origin is None:
                raise ValueError(f"{given!r} is not an origin (http[s]://host[:port])")
            origins.append(origin)
        return origins

    @field_validator("database_url", "reranker_url", "reranker_model", "mcp_key", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @model_validator(mode="after")
    def _room_for_a_document(self) -> Settings:
        if self.ingest_bodies_max_bytes < self.max_body_bytes:
            raise ValueError(
                "RAG_INGEST_BODIES_MAX_BYTES must be at least RAG_MAX_BODY_BYTES (else the "
                "largest document allowed could never be taken)"
            )
        return self

    @property
    def open_access(self) -> bool:
        """No keys configured: anyone on the loopback interface may read and write."""
        return not self.api_keys and not self.read_keys and not self.collection_keys

    def share(self, given: int | None) -> int:
        """A tenant's slots: as configured, else all the pool but one connection."""
        return given if given is not None else max(1, self.pool_size - 1)

    @property
    def embedded(self) -> bool:
        return self.database_url is None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
