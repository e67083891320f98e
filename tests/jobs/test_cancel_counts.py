"""A job cancelled while a batch is at the embedder counts that batch once it comes back:
its vectors were made (and kept in the cache), and its progress says so (before, the
cancel was read before the batch was counted, and the job reported fewer texts embedded
than the endpoint had embedded for it)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import PgServer
from helpers import until
from remote_space import remote_space_service


@pytest.fixture(scope="module")
def jobs_client(pg: PgServer, template_db: str, hash_endpoint: str) -> Iterator[httpx.Client]:
    calls = {"concurrency": 1, "batch_size": 2}  # a batch: two texts, one call
    env = {"RAG_JOB_WORKERS": "1"}
    with (
        remote_space_service(pg, hash_endpoint, env, ("c",), **calls) as (service, _),
        httpx.Client(base_url=service.base_url, timeout=60) as client,
    ):
        yield client


def _job(client: httpx.Client, location: str) -> dict[str, Any]:
    return dict(client.get(location).json()["job"])


def test_a_batch_embedded_after_the_cancel_is_counted(jobs_client, endpoint_control):
    client, control = jobs_client, endpoint_control
    control.post("/hold-matching", json="HELD")
    chunks = [{"chunk": f"note {n}" + (" HELD" if n == 2 else "")} for n in range(6)]
    r = client.post("/api/rag/documents?async=true",
                    json={"doc_id": "cancelled", "collection": "c", "chunks": chunks})  # fmt: skip
    assert r.status_code == 202, r.text
    location = r.headers["location"]
    until(lambda: control.get("/stats").json()["held"] == 1, 30, "the second batch is held")
    job_id = location.rstrip("/").rsplit("/", 1)[1]
    assert client.post(f"/api/rag/jobs/{job_id}/cancel").status_code in (200, 202)
    time.sleep(2.5)  # the worker's heartbeat reads the cancel (every second)
    control.post("/release-matching", json="HELD")
    # two batches at the endpoint: the one before the cancel and the one held
    until(lambda: len(control.get("/stats").json()["texts"]) == 4, 30, "the held batch")

    def counted() -> int:
        return int(_job(client, location)["progress"]["chunks"]["embedded"])

    until(lambda: counted() == 4, 15, "the held batch counted")  # it stayed at 2
    assert _job(client, location)["status"] == "cancelled"
    assert _job(client, location)["progress"]["chunks"]["stored"] == 0
