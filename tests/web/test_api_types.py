"""The page calls the API through types generated from the service's OpenAPI document
(web/src/api/schema.d.ts, by web/scripts/generate-api-types.mjs): the committed file is
what the generator makes of the application's document today, and a response shape that
changes under the page fails its type check instead of reaching its users."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.api.main import create_app
from app.settings import Settings

WEB = Path(__file__).resolve().parents[2] / "web"
SCHEMA = WEB / "src" / "api" / "schema.d.ts"


def generate(output: Path, document: dict | None = None, tmp: Path | None = None) -> None:
    env = {**os.environ, "PYTHON": sys.executable}
    if document is not None and tmp is not None:
        path = tmp / "openapi.json"
        path.write_text(json.dumps(document))
        env["OPENAPI_DOCUMENT"] = str(path)
    subprocess.run(
        ["node", "scripts/generate-api-types.mjs", str(output)],
        cwd=WEB,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )


def type_check(web: Path) -> subprocess.CompletedProcess[str]:
    tsc = WEB / "node_modules" / ".bin" / "tsc"
    return subprocess.run(
        [str(tsc), "--noEmit", "-p", str(web)], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def node_modules() -> Path:
    modules = WEB / "node_modules"
    assert (modules / ".bin" / "tsc").exists(), "the page's packages are missing: run make web"
    return modules


def test_the_generated_types_are_current(node_modules, tmp_path):
    fresh = tmp_path / "schema.d.ts"
    generate(fresh)
    assert fresh.read_text() == SCHEMA.read_text(), (
        "web/src/api/schema.d.ts is stale: run `cd web && npm run generate-api`"
    )


def test_a_changed_response_shape_fails_the_pages_type_check(node_modules, tmp_path):
    """The page's sources, type-checked once as they are and once against a document in
    which the search rows lost a field the page reads (their title)."""
    copy = tmp_path / "web"
    shutil.copytree(WEB / "src", copy / "src")
    shutil.copy(WEB / "tsconfig.json", copy / "tsconfig.json")
    (copy / "node_modules").symlink_to(node_modules)
    assert type_check(copy).returncode == 0

    document = create_app(Settings.model_construct()).openapi()
    row = document["components"]["schemas"]["SearchRow"]
    del row["properties"]["title"]
    row["required"].remove("title")
    generate(copy / "src" / "api" / "schema.d.ts", document, tmp_path)
    checked = type_check(copy)
    assert checked.returncode != 0
    assert "Property 'title' does not exist" in checked.stdout
