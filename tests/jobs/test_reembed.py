"""Re-embedding a space as a job: searches keep the old vectors (and the old embedder for
questions) until the new ones are complete, then switch at once; documents stored while
it runs are caught up; a cancelled re-embed leaves the space as it was."""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest

from app.db import locks
from conftest import service_and_database, start_service
from embed_server import embed_server
from helpers import until

SERVICE_ENV = {"RAG_EMBEDDER": "none", "RAG_JOB_LEASE_SECONDS": "3"}


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[httpx.Client, str, str]]:
    """The old embedder's URL, the new one's, and the new one's control client."""
    with embed_server("--hash", "8") as old, embed_server("--hash", "16") as new, \
            httpx.Client(base_url=new.removesuffix("/v1")) as control:  # fmt: skip
        yield control, old, new


def _embedder(url: str, model: str) -> dict:
    return {"kind": "openai", "url": url, "model": model, "batch_size": 4, "concurrency": 1}


def _wait(client: httpx.Client, location: str) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = client.get(location).json()["job"]
        if job["status"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.1)
    raise AssertionError(job)


def _held(control: httpx.Client, client: httpx.Client, location: str) -> None:
    deadline = time.monotonic() + 30
    while control.get("/stats").json()["held"] == 0:
        assert time.monotonic() < deadline, json.dumps(client.get(location).json())
        time.sleep(0.05)


def _space(client: httpx.Client, name: str) -> dict:
    return next(s for s in client.get("/api/rag/spaces").json()["spaces"] if s["name"] == name)


def _space_with_three_documents(
    client: httpx.Client, control: httpx.Client, url: str, name: str, prefix: str
) -> None:
    """A space of 8 dimensions embedded by ``url``, three documents (``prefix`` 0..2), and
    the next call to the new embedder held."""
    space = {"name": name, "dims": 8, "embedder": _embedder(url, "hash-8")}
    assert client.post("/api/rag/spaces", json=space).status_code == 201
    for n in range(3):
        doc = {"doc_id": f"{prefix}{n}", "text": f"{prefix} a document to keep, {n}."}
        assert client.post("/api/rag/documents", json=doc).status_code == 200
    control.post("/reset")
    control.post("/faults", json=["hold"])


def _held_reembed(
    client: httpx.Client, control: httpx.Client, urls: tuple[str, str], name: str, prefix: str
) -> str:
    """A space with three documents, its re-embed by ``urls[1]`` started and held in its
    first call: the job's location."""
    _space_with_three_documents(client, control, urls[0], name, prefix)
    body = {"embedder": _embedder(urls[1], "hash-16"), "dims": 16}
    r = client.post(f"/api/rag/spaces/{name}/reembed", json=body)
    assert r.status_code == 202, r.text
    _held(control, client, r.headers["location"])
    return str(r.headers["location"])


def test_searches_switch_to_the_new_vectors_when_they_are_complete(client, servers, run_id):
    b, old, new = servers
    name = f"m{run_id[1:]}"
    space = {"name": name, "dims": 8, "embedder": _embedder(old, "hash-8")}
    assert client.post("/api/rag/spaces", json=space).status_code == 201
    for n in range(10):  # more chunks than one call embeds: the second call is held
        doc = {"doc_id": f"{run_id}-{n}", "text": f"{run_id} document {n} about topic {n}."}
        assert client.post("/api/rag/documents", json=doc).status_code == 200
    b.post("/reset")
    b.post("/faults", json=["ok", "hold"])
    r = client.post(f"/api/rag/spaces/{name}/reembed",
                    json={"embedder": _embedder(new, "hash-16"), "dims": 16})  # fmt: skip
    assert r.status_code == 202, r.text
    location = r.headers["location"]
    _held(b, client, location)
    search = {"query": f"{run_id} topic", "active_spaces": [name], "hybrid_vector_weight": 1}
    during = client.post("/api/rag/search", json=search)
    assert during.status_code == 200 and during.json()["rows"]
    assert _space(client, name)["dims"] == 8  # the old vectors, the old embedder
    late = {"doc_id": f"{run_id}-late", "text": f"{run_id} stored during the re-embed."}
    assert client.post("/api/rag/documents", json=late).status_code == 200
    assert client.post(f"/api/rag/spaces/{name}/reembed", json={}).status_code == 409
    b.post("/release")
    job = _wait(client, location)
    assert job["status"] == "done" and job["kind"] == "reembed" and job["space"] == name
    chunks = job["progress"]["chunks"]
    assert chunks["stored"] == chunks["total"] == 11  # (stored was 0)
    moved = _space(client, name)
    assert moved["dims"] == 16 and moved["embedder"]["model"] == "hash-16"
    assert moved["model"] == "hash-16"
    for doc_id in [f"{run_id}-0", f"{run_id}-late"]:
        stored = client.get(f"/api/rag/documents/{doc_id}",
                            params={"include_embeddings": "true"}).json()  # fmt: skip
        assert len(stored["chunks"][0]["embeddings"][name]) == 16
    b.post("/reset")
    after = client.post("/api/rag/search", json=search)
    assert after.status_code == 200 and after.json()["rows"]
    assert b.get("/stats").json()["texts"] == [f"{run_id} topic"]  # the new embedder


def test_a_cancelled_reembed_leaves_the_space_as_it_was(client, servers, run_id):
    b, old, new = servers
    name = f"c{run_id[1:]}"
    _space_with_three_documents(client, b, old, name, f"{run_id}-c")
    r = client.post(f"/api/rag/spaces/{name}/reembed",  # a model nothing was embedded by
                    json={"embedder": _embedder(new, "hash-16b"), "dims": 16})  # fmt: skip
    _held(b, client, r.headers["location"])
    # dropped under the job, the space left it running into tables no longer there
    refused = client.delete(f"/api/rag/spaces/{name}")
    assert refused.status_code == 409 and "cancel the job first" in refused.json()["error"]
    client.post(r.headers["location"] + "/cancel")
    b.post("/release")
    assert _wait(client, r.headers["location"])["status"] == "cancelled"
    kept = _space(client, name)
    assert kept["dims"] == 8 and kept["embedder"]["model"] == "hash-8"
    stored = client.get(f"/api/rag/documents/{run_id}-c0",
                        params={"include_embeddings": "true"}).json()  # fmt: skip
    assert len(stored["chunks"][0]["embeddings"][name]) == 8


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [("/api/rag/spaces/nosuch/reembed", {}, 404),
     ("/api/rag/spaces/default/reembed", {}, 400),
     ("/api/rag/spaces/default/reembed", {"dims": 0}, 400)],
    ids=["unknown space", "no embedder", "bad dims"],
)  # fmt: skip
def test_a_reembed_that_cannot_run_is_refused(client, path, body, status):
    assert client.post(path, json=body).status_code == status


def test_only_a_dense_space_is_reembedded(client, run_id):
    name = f"{run_id}_sparse"
    body = {"name": name, "kind": "sparse", "dims": 1000}
    assert client.post("/api/rag/spaces", json=body).status_code == 201
    r = client.post(f"/api/rag/spaces/{name}/reembed", json={"embedder": {"kind": "bm25"}})
    assert r.status_code == 400, r.text
    assert r.json()["field"] == "space" and "only dense spaces" in r.json()["error"]
    assert _space(client, name)["embedder"] is None


def _waits_for_its_turn(url: str) -> bool:
    """A backend waits for an advisory lock (the switch, for PARTITIONS)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'"
            " AND datname = current_database()"
        ).fetchone()
        return bool(row and row[0])


def test_a_reembed_takes_its_turns_with_the_changes_to_the_collections(
    pg, template_db, servers, run_id
):
    """A re-embed makes a shadow partition in every collection when it starts, and the
    shadow's partitions become the space's at its switch: a collection made or dropped
    meanwhile would have none, so both take their turn after such a change
    (app/db/locks.py PARTITIONS). The switch waits past the statement timeout."""
    b, old, new = servers
    env = {**SERVICE_ENV, "RAG_STATEMENT_TIMEOUT_MS": "2000"}
    with service_and_database(pg, env) as (service, url), \
            httpx.Client(base_url=service.base_url, timeout=60) as client:  # fmt: skip
        space = {"name": "turns", "dims": 8, "embedder": _embedder(old, "hash-8")}
        assert client.post("/api/rag/spaces", json=space).status_code == 201
        for n in range(6):  # more than one call embeds: the second is held
            doc = {"doc_id": f"{run_id}-t{n}", "text": f"{run_id} a document, {n}."}
            assert client.post("/api/rag/documents", json=doc).status_code == 200
        b.post("/reset")
        b.post("/faults", json=["ok", "hold"])
        started: dict[str, httpx.Response] = {}
        body = {"embedder": _embedder(new, "hash-16"), "dims": 16}
        starting = threading.Thread(target=lambda: started.update(
            r=client.post("/api/rag/spaces/turns/reembed", json=body)))  # fmt: skip
        with psycopg.connect(url) as change:  # a collection's creation, under way
            change.execute("SELECT pg_advisory_xact_lock(%s)", (locks.PARTITIONS,))
            starting.start()
            until(lambda: _waits_for_its_turn(url), 30, "the start waits for its turn")
            assert not started
        starting.join(30)
        assert started["r"].status_code == 202, started["r"].text
        location = started["r"].headers["location"]
        _held(b, client, location)  # the fill, held by the embedder
        with psycopg.connect(url) as change:
            change.execute("SELECT pg_advisory_xact_lock(%s)", (locks.PARTITIONS,))
            b.post("/release")
            until(lambda: _waits_for_its_turn(url), 30, "the switch waits for its turn")
            time.sleep(3)  # past the statement timeout
            assert client.get(location).json()["job"]["status"] == "running"
            assert _space(client, "turns")["dims"] == 8
        assert _wait(client, location)["status"] == "done"
        assert _space(client, "turns")["dims"] == 16


def test_a_reembed_the_database_refuses_fails_and_leaves_the_space_as_it_was(
    pg, template_db, servers, run_id
):
    """The database refuses the shadow's vectors (a rule added to it while the fill waits
    for its embedder): the job fails saying so in words, its shadow and next embedder go,
    and the next re-embed of the space runs to the end."""
    b, old, new = servers
    with service_and_database(pg, SERVICE_ENV) as (service, url), \
            httpx.Client(base_url=service.base_url, timeout=60) as client:  # fmt: skip
        location = _held_reembed(client, b, (old, new), "refused", f"{run_id}-r")
        with psycopg.connect(url, autocommit=True) as conn:
            space_id = conn.execute("SELECT id FROM rag.spaces WHERE name = 'refused'").fetchone()
            shadow = f"rag.vectors_{space_id[0]}_next"
            conn.execute(f"ALTER TABLE {shadow} ADD CONSTRAINT refuse CHECK (chunk_pk < 0)")
            b.post("/release")
            job = _wait(client, location)
            assert job["status"] == "failed"
            assert job["error"] == "a value breaks a rule of the stored data"
            left = conn.execute("SELECT to_regclass(%s), (SELECT embedder_next FROM rag.spaces"
                                " WHERE name = 'refused')", (shadow,)).fetchone()  # fmt: skip
            assert left == (None, None)
        kept = _space(client, "refused")
        assert kept["dims"] == 8 and kept["embedder"]["model"] == "hash-8"
        stored = client.get(f"/api/rag/documents/{run_id}-r0",
                            params={"include_embeddings": "true"}).json()  # fmt: skip
        assert len(stored["chunks"][0]["embeddings"]["refused"]) == 8
        b.post("/reset")
        again = client.post(
            "/api/rag/spaces/refused/reembed",
            json={"embedder": _embedder(new, "hash-16"), "dims": 16},
        )
        assert _wait(client, again.headers["location"])["status"] == "done"
        assert _space(client, "refused")["dims"] == 16


def _collections_with_chunks(client: httpx.Client, run_id: str, sizes: dict[str, int]) -> None:
    """Each collection made in turn, with one document of ``size`` chunks (no vectors)."""
    for name, size in sizes.items():
        if name != "default":
            assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
        chunks = [{"chunk": f"{run_id} {name} chunk {n}"} for n in range(size)]
        doc = {"doc_id": f"{run_id}-{name}", "collection": name, "chunks": chunks}
        assert size == 0 or client.post("/api/rag/documents", json=doc).status_code == 200


def _lengths(client: httpx.Client, doc_id: str, collection: str, space: str) -> set[int]:
    params = {"include_embeddings": "true", "collection": collection}
    r = client.get(f"/api/rag/documents/{doc_id}", params=params)
    return {len(chunk["embeddings"][space]) for chunk in r.json()["chunks"]}


def test_a_reembed_reads_a_collection_at_a_time_and_resumes_where_it_stopped(
    pg, template_db, servers, run_id
):
    """The fill reads one collection's chunks after another's: with a later collection's
    chunks locked away, the first ones are embedded (a read of every collection would wait).
    Killed there, the next service resumes after the last chunk stored: every chunk of every
    collection is embedded once and gets its vector."""
    b, old, new = servers
    sizes = {"default": 1, "a": 700, "b": 3, "c": 0, "d": 400}  # in the order they are made
    body = {"embedder": {**_embedder(new, "hash-16"), "batch_size": 64}, "dims": 16}
    with service_and_database(pg, SERVICE_ENV) as (first, url):
        with httpx.Client(base_url=first.base_url, timeout=60) as client, \
                psycopg.connect(url) as blocker:  # fmt: skip
            _collections_with_chunks(client, run_id, sizes)
            space = {"name": "walk", "dims": 8, "embedder": _embedder(old, "hash-8")}
            assert client.post("/api/rag/spaces", json=space).status_code == 201
            b.post("/reset")
            (b_id,) = blocker.execute("SELECT id FROM rag.collections WHERE name = 'b'").fetchone()
            blocker.execute(f"LOCK TABLE rag.chunks_{b_id} IN ACCESS EXCLUSIVE MODE")
            r = client.post("/api/rag/spaces/walk/reembed", json=body)
            assert r.status_code == 202, r.text
            location = r.headers["location"]
            until(lambda: client.get(location).json()["job"]["progress"]["chunks"]["total"]
                  >= 512, 60, "the first batch stored while b is locked")  # fmt: skip
            assert first.process is not None
            first.process.send_signal(signal.SIGKILL)
            first.process.wait()
        second = start_service({**SERVICE_ENV, "DATABASE_URL": url})
        try:
            with httpx.Client(base_url=second.base_url, timeout=60) as client:
                job = _wait(client, location)
                assert job["status"] == "done" and job["attempts"] == 2, job
                for name, size in sizes.items():
                    assert size == 0 or _lengths(client, f"{run_id}-{name}", name, "walk") == {16}
        finally:
            second.stop()
    texts = b.get("/stats").json()["texts"]
    assert len(texts) == len(set(texts)) == sum(sizes.values())  # each embedded once


def test_a_reembed_whose_connection_is_lost_resumes_and_finishes(pg, template_db, servers, run_id):
    """Every backend of the service ended while the fill waits for its embedder: the job
    is taken again when its lease runs out and finishes (before, the supervisor's 503 came
    to the worker as any error: the job failed and its shadow stayed)."""
    b, old, new = servers
    with service_and_database(pg, SERVICE_ENV) as (service, url), \
            httpx.Client(base_url=service.base_url, timeout=60) as client:  # fmt: skip
        location = _held_reembed(client, b, (old, new), "lost", f"{run_id}-l")
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        b.post("/release")
        job = _wait(client, location)
        assert (job["status"], job["attempts"]) == ("done", 2), job
        assert _space(client, "lost")["dims"] == 16
