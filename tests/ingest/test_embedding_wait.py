"""A write whose texts an embedder is making holds no database connection meanwhile: with a
pool of two connections and two writes (documents, jobs or uploads) waiting on a slow
embeddings endpoint, another collection's search answers at once, and the writes are
stored when the endpoint answers. (Each write used to hold its connection through the
embedder's wait: the search waited for the pool and got 503.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

import httpx
import pytest

from conftest import PgServer, ServiceProcess
from helpers import until
from remote_space import remote_space_service

WRITERS = ("w1", "w2")


@pytest.fixture(scope="module")
def small_pool(pg: PgServer, template_db: str, hash_endpoint: str) -> Iterator[ServiceProcess]:
    env = {"RAG_POOL_SIZE": "2", "RAG_POOL_TIMEOUT": "1", "RAG_COLLECTION_CONCURRENCY": "2",
           "RAG_JOB_WORKERS": "2"}  # fmt: skip
    with remote_space_service(pg, hash_endpoint, env, (*WRITERS, "reader")) as (service, _):
        doc = _document("reader", "r-1")
        assert httpx.post(f"{service.base_url}/api/rag/documents", json=doc).status_code == 200
        yield service


def _document(collection: str, doc_id: str) -> dict[str, Any]:
    return {"doc_id": doc_id, "collection": collection, "title": doc_id,
            "text": f"The text of {doc_id}, which the endpoint embeds."}  # fmt: skip


def _held(control: httpx.Client) -> int:
    return int(control.get("/stats").json()["held"])


def _write(base: str, how: str, collection: str) -> httpx.Response:
    doc = _document(collection, f"{collection}-{how}")
    if how == "upload":
        files = {"files": (f"{collection}-{how}", doc["text"].encode(), "text/plain")}
        return httpx.post(base + "/api/rag/documents/upload", files=files,
                          params={"collection": collection}, timeout=60)  # fmt: skip
    path = "/api/rag/documents" + ("?async=true" if how == "job" else "")
    return httpx.post(base + path, json=doc, timeout=60)


@pytest.mark.parametrize("how", ["document", "job", "upload"])
def test_a_search_answers_while_writes_wait_for_the_embedder(small_pool, endpoint_control, how):
    base, control = small_pool.base_url, endpoint_control
    control.post("/faults", json=["hold", "hold"])
    answers: dict[str, httpx.Response] = {}

    def write(collection: str) -> None:
        answers[collection] = _write(base, how, collection)

    writers = [threading.Thread(target=write, args=(name,)) for name in WRITERS]
    for thread in writers:
        thread.start()
    until(lambda: _held(control) == 2, 30, "both writes wait for the endpoint")

    search = {"query_embedding": [0.5] * 8, "collection": "reader", "top_k": 3}
    found = httpx.post(base + "/api/rag/search/space/remote", json=search, timeout=30)
    assert found.status_code == 200, found.text
    assert [row["doc_id"] for row in found.json()["results"]] == ["r-1"]

    control.post("/release")
    for thread in writers:
        thread.join(60)
    for name in WRITERS:
        assert answers[name].status_code in (200, 202), answers[name].text
        until(partial(_stored, base, name, f"{name}-{how}"), 30, f"{name}'s document stored")


def _stored(base: str, collection: str, doc_id: str) -> bool:
    read = httpx.get(f"{base}/api/rag/documents/{doc_id}", params={"collection": collection})
    return read.status_code == 200 and len(read.json()["chunks"]) == 1
