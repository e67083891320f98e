"""A local Citus cluster for the tests of this folder: built from the vendored source
into the shared cache (once), started in a temporary folder on free ports, deleted after
the session. Skipped only where there is no Citus source to build from."""

from __future__ import annotations

import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cluster.install import CitusUnavailable, PgInstall, citus_source, ensure_citus_install
from app.cluster.local import LocalCluster
from conftest import settings_for_tests

WORKERS = 2


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports."""
    for _ in range(100):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            first = int(sock.getsockname()[1])
        if first + count < 65000 and all(_free(first + i) for i in range(count)):
            return first
    raise RuntimeError(f"no {count} consecutive free ports")


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_settings(folder: object, **overrides: object):  # type: ignore[no-untyped-def]
    return settings_for_tests(
        cluster_dir=folder, cluster_port=free_ports(WORKERS + 3),
        pg_shared_buffers="128MB", pg_maintenance_work_mem="128MB", **overrides,
    )  # fmt: skip


@pytest.fixture(scope="session")
def citus_install() -> PgInstall:
    settings = settings_for_tests()
    try:
        citus_source(settings)
    except CitusUnavailable as missing:
        pytest.skip(str(missing))
    return ensure_citus_install(settings, progress=False)


@pytest.fixture(scope="session")
def cluster(citus_install: PgInstall) -> Iterator[LocalCluster]:
    """(In a folder of its own, not pytest's temporary folders, which other sessions on
    the machine clean up.)"""
    folder = Path(tempfile.mkdtemp(prefix="ragsearch-test-cluster-"))
    local = LocalCluster(cluster_settings(folder))
    local.up(WORKERS, progress=False)
    yield local
    local.down(delete=True)
    shutil.rmtree(folder, ignore_errors=True)
