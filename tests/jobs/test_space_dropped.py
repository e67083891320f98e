"""A space dropped while a job's document is at the embedder: the document is stored in
the spaces left (before, its store met the dropped space's table and the item failed
with "database error 42P01", the document lost), and a request that meets a dropped
space's table or function is told so, as a 409 to send again (it was a 500)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest

from app.errors import DroppedWhileRunning, dropped_while_running, from_database_error
from conftest import PgServer
from helpers import until
from remote_space import remote_space_service


@pytest.fixture(scope="module")
def service(
    pg: PgServer, template_db: str, hash_endpoint: str
) -> Iterator[tuple[httpx.Client, str]]:
    calls = {"concurrency": 1, "batch_size": 8}
    with (
        remote_space_service(pg, hash_endpoint, {"RAG_JOB_WORKERS": "1"}, ("c",), **calls) as (
            process, url),
        httpx.Client(base_url=process.base_url, timeout=60) as client,
    ):  # fmt: skip
        yield client, url


def _job(client: httpx.Client, location: str) -> dict[str, Any]:
    return dict(client.get(location).json()["job"])


def test_a_job_stores_its_document_in_the_spaces_left(service, hash_endpoint, endpoint_control):
    client, _ = service
    embedder = {"kind": "openai", "url": hash_endpoint, "model": "hash-8", "batch_size": 8}
    space = {"name": "going", "dims": 8, "embedder": embedder}
    assert client.post("/api/rag/spaces", json=space).status_code == 201
    endpoint_control.post("/hold-matching", json="HELD")
    document = {"doc_id": "kept", "collection": "c", "text": "a note HELD here"}
    r = client.post("/api/rag/documents?async=true", json=document)
    assert r.status_code == 202, r.text
    location = r.headers["location"]
    until(lambda: endpoint_control.get("/stats").json()["held"] >= 1, 30, "a call held")
    assert client.delete("/api/rag/spaces/going").status_code == 200
    endpoint_control.post("/release-matching", json="HELD")
    until(lambda: _job(client, location)["status"] in ("done", "failed"), 60, "the job ends")
    job = _job(client, location)
    assert job["status"] == "done" and job["progress"]["items"]["failed"] == 0, str(job)
    stored = client.get("/api/rag/documents/kept", params={"collection": "c"})
    assert stored.status_code == 200, stored.text
    assert stored.json()["chunks"][0]["spaces"] == ["remote"]


def test_a_dropped_spaces_function_is_a_conflict_to_send_again(service):
    _, url = service
    # a space id no dispatcher knows
    with psycopg.connect(url, autocommit=True) as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT api.space_maxsim(987654, ARRAY[]::vector[], 1, 1)")
    assert dropped_while_running(caught.value)
    said = from_database_error(caught.value)
    assert isinstance(said, DroppedWhileRunning) and "dropped while it ran" in said.message
    assert "987654" not in str(said.body()) and "dropped" not in said.extra  # no internal id
    assert dropped_while_running(said)
    with (
        psycopg.connect(url, autocommit=True) as conn,
        pytest.raises(psycopg.errors.UndefinedTable) as gone,
    ):
        conn.execute("SELECT 1 FROM rag.vectors_987654")
    said = from_database_error(gone.value)
    assert isinstance(said, DroppedWhileRunning) and said.status == 409
    assert said.message.startswith("a collection or embedding space this request uses was dropped")
    with (
        psycopg.connect(url, autocommit=True) as conn,
        pytest.raises(psycopg.errors.UndefinedTable) as missing,
    ):
        conn.execute("SELECT 1 FROM rag.no_such_table")  # a fault, not a drop: still a 500
    assert not dropped_while_running(missing.value)
    assert from_database_error(missing.value).status == 500
