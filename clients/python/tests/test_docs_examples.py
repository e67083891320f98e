"""Each client page of the documentation holds a runnable example: its Python blocks,
run in order against the live service, print what the page says they print."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import WRITE_KEY

DOCS = Path(__file__).resolve().parents[3] / "docs" / "clients"
PAGES = ["python.md", "langchain.md", "llama-index.md"]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.M | re.S)


@pytest.mark.parametrize("page", PAGES)
def test_the_example_runs_and_prints_what_the_page_says(page, base_url, tmp_path):
    text = (DOCS / page).read_text()
    program = "\n".join(blocks(text, "python"))
    (expected,) = blocks(text.split("It prints", 1)[1], "text")[:1]
    script = tmp_path / "example.py"
    script.write_text(program)
    env = {**os.environ, "RAGSEARCH_URL": base_url, "RAGSEARCH_API_KEY": WRITE_KEY}
    for _ in range(2):  # and again: an example can be run twice against one service
        run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                             env=env, cwd=tmp_path, timeout=300)  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert run.stdout == expected
