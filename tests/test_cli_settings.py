"""A setting that breaks its rule stops a command with the variable, the rule and the
value given, and exit status 2 (before, a pydantic traceback)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("command", "env", "says"),
    [(["ingest", "notes.txt"], {"RAG_MAX_FILE_BYTES": "10"},
      "ragsearch: RAG_MAX_FILE_BYTES: input should be greater than or equal to 1024 (got '10')"),
     (["serve"], {"RAG_PORT": "abc"}, "ragsearch: RAG_PORT: input should be a valid integer"),
     (["migrate"], {"RAG_POOL_SIZE": "0"}, "ragsearch: RAG_POOL_SIZE: input should be greater")],
)  # fmt: skip
def test_a_bad_setting_is_named_without_a_traceback(tmp_path, command, env, says):
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *command], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, env={"PATH": "/usr/bin:/bin", **env},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr, done.stderr
