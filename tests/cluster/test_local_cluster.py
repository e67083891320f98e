"""``ragsearch cluster``: Citus built once into a cached install, a coordinator and two
workers started from it, joined and migrated, stopped and started again."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psycopg
import pytest

from app.cluster.install import COMPLETE, CitusUnavailable, PgInstall, ensure_citus_install
from app.cluster.local import LocalCluster
from app.db.migrate import head_revision
from conftest import settings_for_tests
from helpers import postgres_running


def test_up_starts_a_coordinator_and_two_joined_workers_and_migrates(cluster: LocalCluster):
    nodes = cluster.status()
    assert [(n.name, n.running) for n in nodes] == [
        ("coordinator", True), ("worker-1", True), ("worker-2", True)
    ]  # fmt: skip
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        workers = conn.execute(
            "SELECT nodeport FROM pg_dist_node WHERE groupid <> 0 AND isactive ORDER BY nodeport"
        ).fetchall()
        assert [port for (port,) in workers] == [n.port for n in nodes[1:]]
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        assert revision == (head_revision(),)
        assert conn.execute("SELECT count(*) FROM rag.spaces").fetchone() == (1,)
    for node in nodes:
        url = cluster.url.replace(str(nodes[0].port), str(node.port))
        with psycopg.connect(url) as conn:
            version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'citus'")
            assert version.fetchone() == ("14.0-1",)


def test_a_second_build_finds_the_cached_install(citus_install: PgInstall):
    marker = citus_install.root / COMPLETE
    built_at = marker.stat().st_mtime_ns
    started = time.monotonic()
    again = ensure_citus_install(settings_for_tests(), progress=False)
    assert again == citus_install
    assert time.monotonic() - started < 2
    assert marker.stat().st_mtime_ns == built_at
    assert not (citus_install.root / "build").exists()
    assert citus_install.has_citus


def test_down_stops_every_node_and_up_starts_them_again_with_their_data(cluster: LocalCluster):
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS public.kept (n integer)")
        conn.execute("INSERT INTO public.kept VALUES (7)")
    cluster.down()
    assert not any(node.running for node in cluster.status())
    assert not any(postgres_running(cluster.folder / name) for name in ("coordinator", "worker-1"))
    cluster.up(2, progress=False)
    assert all(node.running for node in cluster.status())
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        assert conn.execute("SELECT n FROM public.kept").fetchall() == [(7,)]
        conn.execute("DROP TABLE public.kept")


def test_a_failed_build_says_why(tmp_path):
    source = tmp_path / "citus"
    source.mkdir()
    (source / "citus-9.9.9.tar.gz").write_bytes(b"")
    (source / "build.sh").write_text("echo 'configure: error: no compiler found' >&2; exit 1\n")
    settings = settings_for_tests(citus_source=source, citus_cache_dir=tmp_path / "cache")
    with pytest.raises(CitusUnavailable, match="no compiler found"):
        ensure_citus_install(settings, progress=False)
    assert not any((tmp_path / "cache").glob("*citus-9.9.9"))  # nothing half-built is kept


def test_without_a_source_the_message_names_the_setting(tmp_path):
    settings = settings_for_tests(citus_source=tmp_path / "nowhere")
    with pytest.raises(CitusUnavailable, match="RAG_CITUS_SOURCE"):
        ensure_citus_install(settings, progress=False)


def test_status_of_no_cluster_says_so(tmp_path):
    env = {**os.environ, "RAG_CLUSTER_DIR": str(tmp_path / "none")}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "cluster", "status"], env=env, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert "no cluster in" in done.stdout
