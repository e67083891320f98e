"""The client cannot drift from the server: its models are what the generator makes of the
live service's OpenAPI document, its methods cover every path of it, its version is the
server's."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from pathlib import Path

import httpx
import pytest

import ragsearch_client
from ragsearch_client import _calls

CLIENT = Path(__file__).resolve().parents[1]
ROOT = CLIENT.parents[1]


def load_generator():
    script = CLIENT / "scripts" / "generate_models.py"
    spec = importlib.util.spec_from_file_location("generate_models", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_models_are_generated_from_the_services_openapi(base_url):
    document = httpx.get(f"{base_url}/openapi.json").json()
    generated = load_generator().render(document)
    committed = (CLIENT / "src" / "ragsearch_client" / "models.py").read_text()
    assert generated == committed, (
        "models.py is stale: run `.venv/bin/python clients/python/scripts/generate_models.py`"
    )


@pytest.mark.parametrize("suffix", ["", "/", "/openapi.json"])
def test_the_generator_reads_a_service_by_its_url_or_its_documents(base_url, suffix):
    assert load_generator().fetch_document(base_url + suffix)["openapi"].startswith("3.")


def test_the_generator_says_where_it_found_no_document(base_url, capsys, monkeypatch):
    monkeypatch.setattr(
        "sys.argv", ["generate_models.py", "--url", base_url + "/nowhere", "--check"]
    )
    assert load_generator().main() == 2
    said = capsys.readouterr().err
    assert said.startswith(f"no OpenAPI document at {base_url}/nowhere/openapi.json: ")
    assert "Traceback" not in said


def test_a_renamed_model_keeps_its_old_name():
    from ragsearch_client import models

    assert models.Dropped is models.SpaceDropped  # DELETE /spaces/{name}'s answer


def test_every_path_of_the_api_has_a_method(base_url):
    document = httpx.get(f"{base_url}/openapi.json").json()
    served = {(method.upper(), path) for path, operations in document["paths"].items()
              for method in operations}  # fmt: skip
    assert served == set(_calls.ROUTES)


def test_the_client_has_the_servers_version():
    server = re.search(r'__version__ = "([^"]+)"', (ROOT / "app" / "__init__.py").read_text())
    assert server is not None
    assert ragsearch_client.__version__ == server.group(1)
    assert importlib.metadata.version("ragsearch-client") == server.group(1)


def test_the_service_reports_the_same_version(base_url):
    document = httpx.get(f"{base_url}/openapi.json").json()
    assert document["info"]["version"] == ragsearch_client.__version__
