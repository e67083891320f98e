"""The ingest benchmark's split of a load (bench/ingest_cpu.py): a command shaped like
``ragsearch ingest`` (a child process that parses, the process itself, then an index build
in the database) has its time and CPU split where the build begins, each role's CPU where
it was spent."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ holds scripts

from bench.ingest_cpu import RoleMeter, timed_ingest

# A load in three parts: its child burns CPU (the parser), then the process itself (the
# loader), then an index build in the database that takes about a second of CPU.
LOAD = textwrap.dedent(
    """
    import multiprocessing, sys, time
    import psycopg

    def burn(seconds):
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    if __name__ == "__main__":
        child = multiprocessing.get_context("spawn").Process(target=burn, args=(0.6,))
        child.start(); child.join()
        burn(0.6)
        with psycopg.connect(sys.argv[1], autocommit=True) as conn:
            conn.execute("CREATE INDEX slow_build ON built (slow_key(n))")
    """
)
SLOW_KEY = """CREATE FUNCTION slow_key(p integer) RETURNS bigint LANGUAGE sql IMMUTABLE
              AS $$ SELECT p + count(*) FROM generate_series(1, 100000) $$"""


def test_the_build_is_split_from_the_load_with_each_roles_cpu(db_url, tmp_path):
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(SLOW_KEY)
        conn.execute("CREATE TABLE built AS SELECT generate_series(1, 200) AS n")
    script = tmp_path / "load.py"
    script.write_text(LOAD)
    load, build, whole = timed_ingest(
        [sys.executable, str(script), db_url], dict(os.environ), db_url, tick=0.05
    )
    assert load.seconds > 1.0 and build.seconds > 0.5
    # the child's 0.6 s and the process's own, each in its role and phase
    assert load.cpu["parser"] > 0.5 and load.cpu["loader"] > 0.5
    assert build.cpu["parser"] == 0 and build.cpu["loader"] < 0.3
    # the build's CPU is the database's (its backend, counted in full once it has ended)
    assert build.cpu["database"] > 0.8
    assert load.cpu["database"] < build.cpu["database"] / 2
    assert whole.cpu["loader"] >= load.cpu["loader"]


BURN_THEN_SLEEP = (
    "import time\n"
    "end = time.process_time() + 0.3\n"
    "while time.process_time() < end:\n"
    "    pass\n"
    "time.sleep(3)\n"
)


def test_a_reading_never_goes_down_when_a_child_outlives_its_parent():
    """The loader's helpers may outlive it (a resource tracker, reparented as it exits):
    once its parent is gone a child is no longer seen, but the CPU it spent was."""
    parent = subprocess.Popen(
        ["sh", "-c", f'"{sys.executable}" -c "$0" & sleep 1', BURN_THEN_SLEEP]
    )
    meter = RoleMeter(psutil.Process(parent.pid), None, set())
    try:
        time.sleep(0.8)
        seen = meter.read()["parser"]
        assert seen > 0.2  # the child's burn, while its parent lives
        deadline = time.monotonic() + 10
        while psutil.Process(parent.pid).status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert meter.read()["parser"] >= seen
    finally:
        parent.wait()
        for orphan in psutil.process_iter(["cmdline"]):
            if BURN_THEN_SLEEP in (orphan.info["cmdline"] or []):
                orphan.kill()
