"""A wheel built from a checkout that never built the page still serves it: the build
hook (setup.py) builds the page, with Swagger UI and ReDoc, into the wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IN_WHEEL = ("app/static/web-page/index.html", "app/static/web-page/api-docs/swagger-ui-bundle.js",
            "app/static/web-page/api-docs/swagger-ui.css",
            "app/static/web-page/api-docs/redoc.standalone.js")  # fmt: skip


def fresh_checkout(target: Path) -> Path:
    """The tracked files only (no built page), with the installed node_modules borrowed."""
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / name.decode()
        if source.is_file():
            destination = target / name.decode()
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(source.read_bytes())
    (target / "web" / "node_modules").symlink_to(ROOT / "web" / "node_modules")
    return target


def test_a_wheel_built_from_a_checkout_carries_the_page(tmp_path):
    source = fresh_checkout(tmp_path / "src")
    assert not (source / "app/static/web-page").exists()
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), "."],
        cwd=source,
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("ragsearch-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(IN_WHEEL) <= names
    assert any(name.startswith("app/static/web-page/assets/index-") for name in names)
    assert any(name.startswith("app/sql/functions/") for name in names)
