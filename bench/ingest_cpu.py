"""Where a bulk load's time goes: ``ragsearch ingest`` run as a child process, the CPU of
its processes and of its database server read every quarter second, split where the HNSW
build begins (pg_stat_progress_create_index shows it) into the load (parsing, writing,
storing) and the build (with what follows it: statistics, the summary).

Roles: ``parser`` (the loader's child processes: validation, app/ingest/fileparse.py),
``loader`` (the ingest process: COPY), ``database`` (the postmaster and every process it
started: the loading backend, the build's parallel worker, background writers).
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from dataclasses import dataclass, field

import psutil
import psycopg

from bench.http_load import postmaster

ROLES = ("parser", "loader", "database")
TICK = 0.25


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ROLES, 0.0))

    def row(self) -> list[object]:
        busy = sum(self.cpu.values()) / self.seconds if self.seconds else 0.0
        return [self.name, self.seconds, *(self.cpu[r] for r in ROLES), f"{busy:.2f}"]


HEADERS = ["phase", "seconds", *(f"{r} CPU s" for r in ROLES), "cores busy"]


class _Meter:
    """The last CPU reading of every process seen, by role (a process that ends keeps
    what it used up to its last reading)."""

    def __init__(self, loader: psutil.Process, server: psutil.Process | None) -> None:
        self.loader, self.server = loader, server
        self.seen: dict[int, tuple[str, float]] = {}

    def _processes(self) -> list[tuple[str, psutil.Process]]:
        found = [("loader", self.loader)]
        with contextlib.suppress(psutil.Error):  # the loader has ended
            found += [("parser", p) for p in self.loader.children(recursive=True)]
        if self.server is not None:
            found += [("database", p) for p in [self.server, *self.server.children()]]
        return found

    def read(self) -> dict[str, float]:
        for role, process in self._processes():
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            self.seen[process.pid] = (role, times.user + times.system)
        totals = dict.fromkeys(ROLES, 0.0)
        for role, cpu in self.seen.values():
            totals[role] += cpu
        return totals


def _building(conn: psycopg.Connection, database: str) -> bool:
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_progress_create_index WHERE datname = %s", (database,)
    ).fetchone()
    return bool(row and row[0])


def timed_ingest(argv: list[str], env: dict[str, str], url: str, database: str) -> list[Phase]:
    """Run the ingest command; its load and build phases with the CPU of each role."""
    server = postmaster(url)
    with psycopg.connect(url, autocommit=True) as watcher:
        started = time.perf_counter()
        child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
        meter = _Meter(psutil.Process(child.pid), server)
        before = meter.read()
        load, build = Phase("load"), Phase("index build and after")
        at_build: dict[str, float] | None = None
        while child.poll() is None:
            totals = meter.read()
            if at_build is None and _building(watcher, database):
                at_build, load.seconds = totals, time.perf_counter() - started
            time.sleep(TICK)
        if child.returncode:
            raise subprocess.CalledProcessError(child.returncode, argv)
        totals, wall = meter.read(), time.perf_counter() - started
    at_build = at_build or totals
    load.seconds = load.seconds or wall
    load.cpu = {r: at_build[r] - before[r] for r in ROLES}
    build.seconds = wall - load.seconds
    build.cpu = {r: totals[r] - at_build[r] for r in ROLES}
    whole = Phase("whole", wall, {r: totals[r] - before[r] for r in ROLES})
    return [load, build, whole]
