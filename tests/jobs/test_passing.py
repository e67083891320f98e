"""A running job takes turns with other collections' jobs: past RAG_JOB_TURN_SECONDS,
between two of its items, it gives its worker to another collection's waiting job and goes
back to the queue; it is taken again after, goes on at its next item, and stores every item
once. (A running job was never stopped: with one worker, another tenant's one-file upload
waited for the whole of a 300-file upload.)"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import PgServer, start_service
from helpers import until

FILES = 300


@pytest.fixture(scope="module")
def one_worker(pg: PgServer, template_db: str) -> Iterator[httpx.Client]:
    url = pg.create_database()
    service = start_service({"DATABASE_URL": url, "RAG_EMBEDDER": "none",
                             "RAG_JOB_WORKERS": "1", "RAG_JOB_TURN_SECONDS": "0.5"})  # fmt: skip
    try:
        with httpx.Client(base_url=service.base_url, timeout=60) as client:
            for name in ("big", "small"):
                assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
            yield client
    finally:
        service.stop()
        pg.drop_database(url)


def _zip(count: int) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for n in range(count):
            text = f"# File {n}\n\n" + " ".join(f"word{n}-{i}" for i in range(300))
            archive.writestr(f"f{n:03}.md", text)
    return data.getvalue()


def _upload(client: httpx.Client, collection: str, name: str, data: bytes) -> int:
    r = client.post("/api/rag/documents/upload", files=[("files", (name, data))],
                    params={"collection": collection, "async": "true"})  # fmt: skip
    assert r.status_code == 202, r.text
    return int(r.headers["location"].rsplit("/", 1)[1])


def _job(client: httpx.Client, job: int) -> dict[str, Any]:
    return dict(client.get(f"/api/rag/jobs/{job}").json()["job"])


def test_a_long_job_gives_its_worker_to_another_collections_job(one_worker):
    client = one_worker
    big = _upload(client, "big", "many.zip", _zip(FILES))
    until(lambda: _job(client, big)["progress"]["items"]["done"] > 0, 30, "the big job runs")
    small = _upload(client, "small", "one.md", b"# One\n\nA single small file.")
    until(lambda: _job(client, small)["status"] == "done", 60, "the small job is done")
    behind = _job(client, big)
    assert behind["status"] in ("queued", "running")  # it was done first before
    assert behind["progress"]["items"]["done"] < FILES

    until(lambda: _job(client, big)["status"] == "done", 120, "the big job is done")
    done = _job(client, big)
    assert done["progress"]["items"] == {"total": FILES, "done": FILES, "failed": 0}
    assert done["attempts"] == 1  # a turn passed is no attempt
    collection = client.get("/api/rag/collections/big").json()
    assert collection["collection"]["documents"] == FILES, collection
