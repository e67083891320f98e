"""Where a bulk load's time goes: ``ragsearch ingest`` run as a child process, the CPU of
its processes and of its database server read every quarter second, split where the
first index build begins in the database (pg_stat_progress_create_index shows it; a load
builds no index but its HNSW ones) into the load (parsing, writing, storing) and the build
(with what follows it: statistics, the summary).

Roles: ``parser`` (the loader's child processes: validation, app/ingest/fileparse.py, and
multiprocessing's small resource tracker), ``loader`` (the ingest process: COPY),
``database`` (the postmaster and every process it started: the loading backend, the
build's parallel worker, background writers). A process that has ended counts in full
through its parent's reaped-children times; the loader itself loses at most its last
quarter second. A database on another machine cannot be read: its column stays 0.
"""

from __future__ import annotations

import contextlib
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import psutil
import psycopg

from bench.common import postmaster

ROLES = ("parser", "loader", "database")
TICK = 0.25
HEADERS = ["phase", "seconds", *(f"{r} CPU s" for r in ROLES), "cores busy"]


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ROLES, 0.0))

    def row(self) -> list[object]:
        busy = sum(self.cpu.values()) / self.seconds if self.seconds else 0.0
        return [self.name, self.seconds, *(self.cpu[r] for r in ROLES), f"{busy:.2f}"]


class LoadSplit(NamedTuple):
    load: Phase
    build: Phase
    whole: Phase


def _tree_cpu(parent: psutil.Process, skip: set[int]) -> float:
    """CPU seconds of ``parent``'s children: those it has reaped (its children times),
    then those alive (read after, so none is counted twice; one that ends in between is
    missed)."""
    times = parent.cpu_times()
    spent = times.children_user + times.children_system
    for child in parent.children(recursive=True):
        if child.pid in skip:
            continue
        with contextlib.suppress(psutil.Error):  # ended since listed
            child_times = child.cpu_times()
            spent += child_times.user + child_times.system
    return spent


class RoleMeter:
    def __init__(self, loader: psutil.Process, server: psutil.Process | None,
                 skip: set[int]) -> None:  # fmt: skip
        self.loader, self.server, self.skip = loader, server, skip
        self.last = dict.fromkeys(ROLES, 0.0)

    def read(self) -> dict[str, float]:
        """Each role's CPU so far (the loader's last reading once it has ended). A reading
        never goes down: a child seen alive and gone before its parent reaped it (the
        loader's own helpers as it exits) is seen no more, but its CPU was spent."""
        with contextlib.suppress(psutil.Error):
            own = self.loader.cpu_times()
            self.last["loader"] = own.user + own.system
            self._rise("parser", _tree_cpu(self.loader, self.skip))
        if self.server is not None:
            own = self.server.cpu_times()
            self._rise("database", own.user + own.system + _tree_cpu(self.server, self.skip))
        return dict(self.last)

    def _rise(self, role: str, seconds: float) -> None:
        self.last[role] = max(self.last[role], seconds)


def _building(conn: psycopg.Connection) -> bool:
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_progress_create_index WHERE datname = current_database()"
    ).fetchone()
    return bool(row and row[0])


def _reaped_children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _watch(child: subprocess.Popen[bytes], meter: RoleMeter, watcher: psycopg.Connection,
           tick: float) -> tuple[dict[str, float] | None, float]:  # fmt: skip
    """Read the meter until the child ends: (the readings when the build began, or None
    when no build was seen; seconds from the start to the build, or to the end)."""
    started = time.perf_counter()
    at_build: dict[str, float] | None = None
    seconds = 0.0
    while child.poll() is None:
        totals = meter.read()
        if at_build is None and _building(watcher):
            at_build, seconds = totals, time.perf_counter() - started
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(tick)
    return at_build, seconds or time.perf_counter() - started


def timed_ingest(argv: list[str], env: dict[str, str], url: str, tick: float = TICK) -> LoadSplit:
    """Run the ingest command; its load and build phases with the CPU of each role."""
    server = postmaster(url)
    if server is None:
        print("the database runs elsewhere: its CPU is not read", file=sys.stderr)
    with psycopg.connect(url, autocommit=True) as watcher:
        reaped = _reaped_children_cpu()
        started = time.perf_counter()
        child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
        try:
            meter = RoleMeter(psutil.Process(child.pid), server, {watcher.info.backend_pid})
            before = meter.read()
            at_build, load_seconds = _watch(child, meter, watcher, tick)
            wall = time.perf_counter() - started
            totals = meter.read()
        except BaseException:
            child.kill()
            child.wait()
            raise
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, argv)
    # once reaped, the loader's CPU and its children's are known in full
    totals["loader"] = _reaped_children_cpu() - reaped - totals["parser"]
    at_build = at_build or totals
    return LoadSplit(
        Phase("load", load_seconds, {r: at_build[r] - before[r] for r in ROLES}),
        Phase("index build and after", wall - load_seconds,
              {r: totals[r] - at_build[r] for r in ROLES}),
        Phase("whole", wall, {r: totals[r] - before[r] for r in ROLES}),
    )  # fmt: skip
