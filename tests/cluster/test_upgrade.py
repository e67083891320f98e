"""A cluster distributed at an older schema is brought to the newest by the migrations
(each run statement by statement: the workers refuse several commands in one). On a
cluster of this module's own, set back to before migration 0016 (and 0018's index of
documents by collection to its earlier shape, 0020's index of jobs dropped)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import psycopg

from app.cluster.install import PgInstall
from app.cluster.local import LocalCluster
from app.db.migrate import head_revision, upgrade

from .conftest import WORKERS, cluster_settings

BEFORE_0016 = [
    "CREATE INDEX documents_collection_idx ON rag.documents (collection_id)",
    "DROP INDEX rag.documents_by_collection_idx",
    "DROP INDEX rag.chunks_collection_signal_idx",
    "DROP INDEX rag.chunks_collection_created_at_idx",
    "DROP INDEX rag.jobs_by_collection_idx",
    "DROP INDEX rag.jobs_waiting_by_collection_idx",
    "ALTER TABLE rag.collections DROP CONSTRAINT collections_name_check",
    "ALTER TABLE rag.collections DROP COLUMN part_of",
    "ALTER TABLE rag.collections DROP COLUMN parts",
    "ALTER TABLE rag.collections ADD CONSTRAINT collections_name_check"
    " CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}$')",
    "UPDATE alembic_version SET version_num = '0015'",
]
ADDED = """SELECT (SELECT count(*) FROM pg_attribute
                   WHERE attrelid = 'rag.collections'::regclass
                     AND attname IN ('parts', 'part_of') AND NOT attisdropped),
                  (SELECT count(*) FROM pg_class WHERE relname IN
                   ('chunks_collection_signal_idx', 'chunks_collection_created_at_idx',
                    'documents_by_collection_idx', 'jobs_by_collection_idx',
                    'jobs_waiting_by_collection_idx')),
                  (SELECT count(*) FROM pg_class WHERE relname = 'documents_collection_idx'),
                  (SELECT version_num FROM alembic_version)"""


def test_the_newest_migrations_upgrade_a_distributed_cluster(citus_install: PgInstall) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ragsearch-test-cluster-"))
    local = LocalCluster(cluster_settings(folder))
    try:
        local.up(WORKERS, progress=False)
        with psycopg.connect(local.url, autocommit=True) as conn:
            for statement in BEFORE_0016:
                conn.execute(statement)
            assert conn.execute(ADDED).fetchone() == (0, 0, 1, "0015")
        upgrade(local.url, local.settings)
        with psycopg.connect(local.url, autocommit=True) as conn:
            assert conn.execute(ADDED).fetchone() == (2, 5, 0, head_revision())
            made = conn.execute("SELECT parts FROM api.create_collection('after', '', 2)")
            assert made.fetchone() == (2,)
    finally:
        local.down(delete=True)
        shutil.rmtree(folder, ignore_errors=True)
