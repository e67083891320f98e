"""Build hook: a wheel always carries the search page (and the Swagger UI and ReDoc files
the page's build bundles), built from web/ with npm when the checkout has not built it.

Everything else about the package is in pyproject.toml.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
BUILT_PAGE = ROOT / "app" / "static" / "web-page" / "index.html"


def build_page() -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(
            "The search page is not built and npm is not installed: install Node.js >= 20.19 "
            "(or run `make web` where it is) before building the wheel."
        )
    if not (WEB / "node_modules").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB, check=True)
    subprocess.run([npm, "run", "build"], cwd=WEB, check=True)


class BuildPyWithPage(build_py):
    """Editable installs leave the page to `make web`; a wheel without it would serve a
    placeholder at /, so building one builds the page first."""

    def run(self) -> None:
        editable = getattr(self, "editable_mode", False)
        if not editable and not BUILT_PAGE.exists() and (WEB / "package.json").exists():
            build_page()
            vars(self).pop("data_files", None)  # listed before the page existed: list again
        super().run()


setup(cmdclass={"build_py": BuildPyWithPage})
