"""The README stays the front door (short, the quick start first) and its links lead
somewhere; the settings page lists every setting with its true default."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import AliasChoices

from app.api.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SETTINGS_PAGE = ROOT / "docs" / "operating" / "settings.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")
ROW = re.compile(r"^\| `([A-Z0-9_]+)` \| (.+?) \| .* \|$")


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


def test_the_readme_is_short_and_opens_with_the_quick_start():
    text = README.read_text()
    assert len(text.splitlines()) < 150
    first, second, *_ = [h for h in headings(text) if not h.startswith("# ragsearch")]
    assert first == "## Quick start"
    intro = text[: text.index(first)]
    assert "score = w_cos · sem + w_lex · lex + w_rec · rec + w_sig · sig" in intro
    quick_start = text[text.index(first) : text.index(second)]
    assert "make demo" in quick_start and "make test" in quick_start
    assert "![" in text and "docs/search-page.png" in text


def test_every_relative_link_of_the_readme_reaches_a_file_and_its_heading():
    for target in LINK.findall(README.read_text()):
        if target.startswith("http"):
            continue
        path, _, anchor = target.partition("#")
        assert (ROOT / path).is_file(), target
        if anchor:
            titles = [h.lstrip("#").strip() for h in headings((ROOT / path).read_text())]
            assert anchor in {slug(title) for title in titles}, target


def slug(title: str) -> str:
    """The anchor MkDocs (and GitHub) gives a heading: lower case, words joined by '-'."""
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", title.lower())).strip("-")


def documented_settings() -> dict[str, str]:
    rows = (ROW.match(line) for line in SETTINGS_PAGE.read_text().splitlines())
    return {row.group(1): row.group(2) for row in rows if row}


def env_var(name: str, field: Any) -> str:
    alias = field.validation_alias
    return alias.choices[0] if isinstance(alias, AliasChoices) else f"RAG_{name.upper()}"


def documented_value(cell: str) -> Any:
    if cell == "unset":
        return None
    if cell == "empty":
        return []
    value = cell.strip("`")
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?\d+(\.\d+)?", value):
        return float(value)
    return json.loads(value) if value.startswith("{") else value


def test_the_settings_page_lists_every_setting_with_its_default(monkeypatch):
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    documented = documented_settings()
    fields = {env_var(name, field): field for name, field in Settings.model_fields.items()}
    assert set(documented) == set(fields)
    for name, field in fields.items():
        default = field.get_default(call_default_factory=True)
        expected = documented_value(documented[name])
        if isinstance(default, Path):
            assert Path(expected).expanduser() == default, name
        elif isinstance(default, int | float) and not isinstance(default, bool):
            assert float(default) == expected, name
        else:
            assert default == expected, name


@pytest.mark.parametrize(
    ("cell", "value"),
    [("unset", None), ("empty", []), ("`{}`", {}), ("`true`", True), ("`0.5`", 0.5),
     ("`1GB`", "1GB")],
)  # fmt: skip
def test_documented_defaults_are_read_as_written(cell, value):
    assert documented_value(cell) == value


def test_the_site_builds_offline_with_the_services_openapi_document(tmp_path):
    """Strict: a broken link or anchor, or a page left out of the nav, fails the build."""
    mkdocs = Path(sys.executable).parent / "mkdocs"
    site = tmp_path / "site"
    built = subprocess.run(
        [str(mkdocs), "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    served = create_app(Settings.model_construct()).openapi()
    assert json.loads((site / "api" / "openapi.json").read_text()) == json.loads(json.dumps(served))
    reference = (site / "api" / "reference" / "index.html").read_text()
    assert "swagger-ui-iframe" in reference
    pages = [path.read_text() for path in site.rglob("*.html")]
    assert not [page for page in pages if "fonts.googleapis.com" in page]
