"""The OpenAPI document as a contract, checked by Schemathesis against a live service with
the demo corpus: generated requests (valid and invalid, every operation, a fixed seed)
never get a server error, every response matches its documented schema, status and
headers. Its check that every schema-valid request is accepted stays off: some rules are
not JSON Schema (a base64 vector's floats must be finite, a vector's length is its
space's, which spaces and goals exist is stored data), and those get 400 or 404."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import WRITE_KEY

SEED = 20261122
EXAMPLES = 25
CONFIG = Path(__file__).with_name("schemathesis.toml")  # 413 is a rejection too


def test_schemathesis_finds_no_server_error_and_no_contract_violation(demo_service, tmp_path):
    schemathesis = Path(sys.executable).parent / "schemathesis"
    run = subprocess.run(
        [str(schemathesis), "--config-file", str(CONFIG), "run",
         f"{demo_service.base_url}/openapi.json",
         "-H", f"Authorization: Bearer {WRITE_KEY}", "--checks", "all",
         "--exclude-checks", "positive_data_acceptance", "--seed", str(SEED),
         "-n", str(EXAMPLES), "--workers", "1", "--no-color",
         "--report", "junit", "--report-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    summary = run.stdout[run.stdout.find("SUMMARY") :]
    cases = re.search(r"(\d+) generated", summary)
    print(f"schemathesis: {cases.group(1) if cases else '?'} cases, seed {SEED}")
    print(summary)
    assert run.returncode == 0, run.stdout[-6000:]
    assert cases and int(cases.group(1)) > 300
