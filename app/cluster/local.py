"""A local Citus cluster in RAG_CLUSTER_DIR: a coordinator and N workers from the cached
install with Citus (install.py), on consecutive ports from RAG_CLUSTER_PORT.

``up`` builds Citus if needed, creates and starts the nodes, creates the service database
with the citus extension on each, joins the workers to the coordinator and migrates it
(the schema is distributed as the migrations run); run again with more workers, it adds
them, and ``rebalance`` moves shard groups onto them. ``down`` stops every node (fast
shutdown: a clean checkpoint, no recovery at the next start); the data stays unless
deleted. The layout (ports) is kept in cluster.json, and one
command at a time works on a cluster (a lock file beside it).
"""

from __future__ import annotations

import fcntl
import json
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg

from app.cluster.install import PgInstall, cached_install, ensure_citus_install
from app.cluster.nodes import Node, prepare_install
from app.db.embedded import DATABASE_NAME
from app.db.sqlfiles import queries
from app.settings import Settings

STATE_FILE = "cluster.json"
COORDINATOR = "coordinator"
REBALANCE_POLL_S = 0.5
FINISHED = {"finished", "failed", "cancelled"}


@dataclass(frozen=True)
class NodeStatus:
    name: str
    port: int
    running: bool
    shards: int | None  # shard placements it holds (None: the coordinator cannot tell)
    collections: int | None  # collections stored on it (likewise)


class LocalCluster:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.folder = settings.cluster_dir.expanduser().resolve()

    # --- layout ---------------------------------------------------------------------
    def _ports(self) -> dict[str, int]:
        path = self.folder / STATE_FILE
        return dict(json.loads(path.read_text())["ports"]) if path.exists() else {}

    def _save_ports(self, ports: dict[str, int]) -> None:
        (self.folder / STATE_FILE).write_text(json.dumps({"ports": ports}, indent=2) + "\n")

    def nodes(self, install: PgInstall) -> list[Node]:
        """The coordinator, then the workers in the order they joined."""
        return [Node(name, self.folder / name, port, install)
                for name, port in self._ports().items()]  # fmt: skip

    def node(self, name: str) -> Node:
        """One node by name (coordinator, worker-1, ...), from the cached install."""
        install = cached_install(self.settings)
        found = [n for n in self.nodes(install) if n.name == name] if install else []
        if not found:
            raise ValueError(f"no node {name!r} in {self.folder}")
        return found[0]

    @property
    def url(self) -> str:
        """The coordinator's service database: the cluster's DATABASE_URL."""
        return f"postgresql://postgres@127.0.0.1:{self._ports()[COORDINATOR]}/{DATABASE_NAME}"

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / ".lock").open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # --- commands ------------------------------------------------------------------
    def up(self, workers: int, progress: bool = True) -> str:
        """Start (creating what is missing) a coordinator and ``workers`` workers, joined
        and migrated; the coordinator's URL."""
        install = ensure_citus_install(self.settings, progress=progress)
        prepare_install(install)
        with self._locked():
            ports = self._grow(workers)
            nodes = self.nodes(install)
            for node in nodes:
                node.init(self.settings)
                node.start()
            for node in nodes:
                _create_database(node)
            _join(nodes[0], nodes[1:])
            assert ports[COORDINATOR] == nodes[0].port
        from app.db.migrate import prepare_database

        url = self.url
        prepare_database(url, self.settings.model_copy(update={"database_url": url}))
        return url

    def _grow(self, workers: int) -> dict[str, int]:
        ports = self._ports()
        have = len(ports) - 1 if ports else 0
        if workers < have:
            raise ValueError(
                f"the cluster has {have} workers; removing workers is not supported "
                "(start a new cluster in another RAG_CLUSTER_DIR)"
            )
        if not ports:
            ports[COORDINATOR] = self.settings.cluster_port
        for number in range(have + 1, workers + 1):
            ports[f"worker-{number}"] = max(ports.values()) + 1
        self._save_ports(ports)
        return ports

    def down(self, delete: bool = False) -> None:
        """Stop the workers, then the coordinator; with ``delete``, remove the data."""
        install = cached_install(self.settings)
        with self._locked():
            if install is not None:
                for node in reversed(self.nodes(install)):
                    node.stop()
            if delete:
                for name in self._ports():
                    shutil.rmtree(self.folder / name, ignore_errors=True)
                (self.folder / STATE_FILE).unlink(missing_ok=True)

    def rebalance(self, progress: bool = True) -> int:
        """Even out the shard groups over the workers (citus_rebalance_start) and wait for
        the moves; how many moves there were."""
        from tqdm import tqdm

        q = queries("cluster")
        with psycopg.connect(self.url, autocommit=True) as conn:
            job = conn.execute(q.rebalance_start).fetchone()
            if job is None or job[0] is None:
                return 0
            with tqdm(desc="rebalancing", unit="move", disable=not progress) as bar:
                while True:
                    row = conn.execute(q.rebalance_status, (job[0],)).fetchone()
                    state, tasks = row if row else ("finished", {})
                    bar.total = sum(tasks.values()) or bar.total
                    bar.update(tasks.get("done", 0) - bar.n)
                    if state in FINISHED:
                        break
                    time.sleep(REBALANCE_POLL_S)
        if state != "finished":
            raise RuntimeError(f"the rebalance ended {state}: see citus_rebalance_status()")
        return int(bar.total or 0)

    def status(self) -> list[NodeStatus]:
        install = cached_install(self.settings)
        if install is None or not self._ports():
            return []
        nodes = self.nodes(install)
        placements, holders = _placements(nodes[0]) if nodes[0].running() else ({}, {})
        return [NodeStatus(node.name, node.port, node.running(), placements.get(node.port),
                           holders.get(node.port, 0) if placements else None)
                for node in nodes]  # fmt: skip


def _create_database(node: Node) -> None:
    with psycopg.connect(node.url("postgres"), autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,))
        if found.fetchone() is None:
            conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
    with psycopg.connect(node.url(DATABASE_NAME), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS citus")


def _join(coordinator: Node, workers: list[Node]) -> None:
    q = queries("cluster")
    with psycopg.connect(coordinator.url(DATABASE_NAME), autocommit=True) as conn:
        conn.execute(q.set_coordinator, ("127.0.0.1", coordinator.port))
        for worker in workers:
            conn.execute(q.add_worker, ("127.0.0.1", worker.port))


def _placements(coordinator: Node) -> tuple[dict[int, int], dict[int, int]]:
    """Shard placements and collections per node port (the coordinator's own included)."""
    q = queries("cluster")
    try:
        with psycopg.connect(coordinator.url(DATABASE_NAME), autocommit=True) as conn:
            placements = conn.execute(q.placements).fetchall()
            holders = conn.execute(q.collection_workers).fetchall()
    except psycopg.Error:
        return {}, {}
    counted: dict[int, int] = {}
    for _collection, _worker, port in holders:
        counted[port] = counted.get(port, 0) + 1
    return {int(port): int(count) for port, count in placements}, counted
