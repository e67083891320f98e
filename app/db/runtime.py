"""Which database the service uses, made ready: DATABASE_URL, or the embedded server."""

from __future__ import annotations

import logging
import time

import psycopg

from app.db.embedded import EmbeddedPostgres
from app.db.migrate import prepare_database
from app.db.replicas import describe
from app.errors import RagError
from app.settings import Settings

log = logging.getLogger("ragsearch")


CONNECT_TIMEOUT_S = 10


class DatabaseUnreachable(RagError):
    """DATABASE_URL names a database no connection reaches (said before a command
    starts, where the driver's traceback would bury the reason)."""

    status = 503


def check_reachable(url: str, wait_s: float) -> None:
    """Raise DatabaseUnreachable when ``url`` cannot be connected to within ``wait_s``
    seconds (a server still starting, or not yet listening, is tried again each second;
    a refused login or a missing database at once): where it is (no user or password)
    and the driver's reason."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S).close()
            return
        except psycopg.OperationalError as error:
            left = deadline - time.monotonic()
            if not _passes(error) or left <= 0:
                raise DatabaseUnreachable(
                    f"cannot connect to the database at DATABASE_URL ({describe(url)}): "
                    + " ".join(line.strip() for line in str(error).splitlines() if line.strip())
                ) from None
            time.sleep(min(1.0, left))


def _passes(error: psycopg.OperationalError) -> bool:
    """No answer yet, or a server still starting (SQLSTATE 57P03): worth another try."""
    return error.sqlstate in (None, "57P03")


class DatabaseRuntime:
    """Start (if embedded), migrate (if RAG_MIGRATE_ON_START), and later stop."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.embedded: EmbeddedPostgres | None = None

    def start(self) -> str:
        url = self.settings.database_url
        if url is None:
            self.embedded = EmbeddedPostgres(self.settings.data_dir, self.settings)
            url = self.embedded.start()
        else:
            log.info("using the database at DATABASE_URL")
        if self.settings.migrate_on_start:
            prepare_database(url, self.settings)
        return url

    def restart_embedded(self) -> str:
        """Start the embedded server again if it stopped (after a crash: recovery runs
        first); its URL."""
        assert self.embedded is not None
        return self.embedded.ensure_running()

    def stop(self) -> None:
        if self.embedded is not None:
            self.embedded.stop()
            self.embedded = None
