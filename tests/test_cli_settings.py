"""A setting that breaks its rule stops a command with the variable, the rule and the
value given, and exit status 2 (before, a pydantic traceback)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest


@pytest.mark.parametrize(
    ("command", "env", "says"),
    [(["ingest", "notes.txt"], {"RAG_MAX_FILE_BYTES": "10"},
      "ragsearch: RAG_MAX_FILE_BYTES: input should be greater than or equal to 1024 (got '10')"),
     (["serve"], {"RAG_PORT": "abc"}, "ragsearch: RAG_PORT: input should be a valid integer"),
     (["migrate"], {"RAG_POOL_SIZE": "0"}, "ragsearch: RAG_POOL_SIZE: input should be greater"),
     (["serve", "--port", "99999"], {}, "ragsearch: --port: input should be less than or equal"),
     (["migrate"], {"RAG_COLLECTION_KEYS": "{bad"},
      "ragsearch: RAG_COLLECTION_KEYS: the value cannot be read (a list or a mapping is JSON)")],
)  # fmt: skip
def test_a_bad_setting_is_named_without_a_traceback(tmp_path, command, env, says):
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *command], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, env={"PATH": "/usr/bin:/bin", **env},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_rule_between_settings_says_it_and_no_secret(tmp_path):
    env = {"RAG_MAX_BODY_BYTES": "999999999", "RAG_API_KEYS": "topsecretkey",
           "DATABASE_URL": "postgresql://u:SECRETPW@127.0.0.1:1/x"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, env={"PATH": "/usr/bin:/bin", **env},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "ragsearch: RAG_INGEST_BODIES_MAX_BYTES must be at least RAG_MAX_BODY_BYTES" in (
        done.stderr
    )
    # before, the whole input was said back: the database password and the key with it
    assert "SECRETPW" not in done.stderr and "topsecretkey" not in done.stderr


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    ("command", "form"),
    [(["serve"], "url"), (["mcp"], "url"), (["migrate"], "url"), (["migrate"], "words")],
)
def test_a_database_out_of_reach_is_said_in_a_line(tmp_path, command, form):
    # before: a traceback of some 200 lines (the MCP client saw only "Connection closed")
    port = _closed_port()
    words = f"host=127.0.0.1 port={port} user=u password=SECRETPW dbname=ragsearch"
    url = f"postgresql://u:SECRETPW@127.0.0.1:{port}/ragsearch" if form == "url" else words
    env = {"DATABASE_URL": url, "RAG_DB_START_WAIT_S": "2"}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *command], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", **env},
    )  # fmt: skip
    assert time.monotonic() - started >= 2  # a database still starting is waited for
    assert done.returncode == 2, done.stderr
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith(
        f"ragsearch: cannot connect to the database at DATABASE_URL (127.0.0.1:{port}/ragsearch): "
    ), done.stderr
    assert "Connection refused" in said
    assert "Traceback" not in done.stderr and "SECRETPW" not in done.stderr


def test_mcp_says_when_it_starts_a_database_of_its_own(tmp_path):
    # a RAG_DATA_DIR other than the service's searched a new, empty database in silence
    env = {"RAG_DATA_DIR": str(tmp_path / "elsewhere"), "RAG_EMBEDDER": "none"}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "mcp"], cwd=tmp_path, capture_output=True, text=True,
        timeout=120, stdin=subprocess.DEVNULL, env={**os.environ, **env},
    )  # fmt: skip
    assert (f"ragsearch mcp: no database in {tmp_path / 'elsewhere'} yet: starting a new, "
            "empty one.") in done.stderr  # fmt: skip
