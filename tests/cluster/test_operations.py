"""Operating a cluster under a running service: a worker stopped (its collections, and a
split collection with a part on it, answer 503 naming it, the others answer; restarted,
nothing is lost; /readyz lists the workers)
and a worker added and the shards rebalanced while searches run (none fails, none changes
its answer). On a cluster of this module's own."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from app.cluster.install import PgInstall
from app.cluster.local import LocalCluster
from app.db.sqlfiles import queries
from helpers import AS_OF

from .conftest import WORKERS, cluster_settings
from .oracle import AUX, AUX_DIMS, corpus, differences, service_client, store, unit

PREFIX = "ops"
SPLIT = "ops-split"  # a part on each worker


@pytest.fixture(scope="module")
def own_cluster(citus_install: PgInstall) -> Iterator[LocalCluster]:
    folder = Path(tempfile.mkdtemp(prefix="ragsearch-test-cluster-"))
    local = LocalCluster(cluster_settings(folder))
    local.up(WORKERS, progress=False)
    yield local
    local.down(delete=True)
    shutil.rmtree(folder, ignore_errors=True)


def workers_of(cluster: LocalCluster) -> dict[str, int]:
    """Each collection's worker port."""
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        rows = conn.execute(queries("cluster").collection_workers).fetchall()
    return {name: port for name, _worker, port in rows}


@pytest.fixture(scope="module")
def loaded(own_cluster: LocalCluster) -> Iterator[tuple[httpx.Client, list[str]]]:
    """A service on the cluster, and eight collections with a few documents each (the
    hash of their ids puts some on each worker)."""
    names = [f"{PREFIX}-{n}" for n in range(8)]
    with service_client(own_cluster.url) as client:
        assert (
            client.post("/api/rag/spaces", json={"name": AUX, "dims": AUX_DIMS}).status_code == 201
        )
        for seed, name in enumerate(names):
            store(client, name, corpus(seed, PREFIX, 6, 5))
        made = client.post("/api/rag/collections", json={"name": SPLIT, "parts": WORKERS})
        assert made.status_code == 201, made.text
        store(client, SPLIT, corpus(99, PREFIX, 12, 5))
        placed = workers_of(own_cluster)
        assert len(set(placed.values())) == WORKERS
        assert {placed[f"{SPLIT}.{n}"] for n in range(1, WORKERS + 1)} == set(placed.values())
        yield client, names


def search_body(name: str) -> dict[str, Any]:
    return {"collection": name, "embedding": unit(3, 384), "k": 5, "query": "river copper",
            "w_lex": 0.2, "as_of": AS_OF.isoformat()}  # fmt: skip


def answers(client: httpx.Client, names: list[str]) -> dict[str, Any]:
    found = {}
    for name in names:
        response = client.post("/api/rag/search", json=search_body(name))
        assert response.status_code == 200, response.text
        found[name] = response.json()
    return found


def test_a_stopped_worker_fails_its_collections_alone_and_loses_nothing(own_cluster, loaded):
    client, names = loaded
    names = [*names, SPLIT]
    before = answers(client, names)
    ready = client.get("/readyz").json()
    workers = [d for d in ready["databases"] if d["role"] == "worker"]
    assert len(workers) == WORKERS and all(w["ok"] for w in workers)
    placed = workers_of(own_cluster)
    node = own_cluster.node("worker-2")
    node.stop()
    try:
        at = f"127.0.0.1:{node.port}"
        for name in names:
            response = client.post("/api/rag/search", json=search_body(name))
            if name == SPLIT or placed[name] == node.port:
                assert response.status_code == 503, response.text
                body = response.json()
                assert body["unreachable"] == at and body["collection"] == name
                assert at in body["error"] and response.headers["retry-after"]
                if name == SPLIT:
                    continue  # (a new document may go to the part that answers)
                write = client.post(
                    "/api/rag/documents",
                    json={"collection": name, "doc_id": "late", "chunks": [{"chunk": "late"}]},
                )
                assert write.status_code == 503
            else:
                assert response.status_code == 200, response.text
                assert differences(response.json(), before[name]) == []
        started = time.monotonic()
        ready = client.get("/readyz")
        assert time.monotonic() - started < 2
        assert ready.status_code == 200
        down = [d for d in ready.json()["databases"] if d["role"] == "worker" and not d["ok"]]
        assert [d["at"] for d in down] == [at]
        assert any(at in note for note in ready.json()["degraded"])
    finally:
        node.start()
    assert differences(answers(client, names), before) == []
    deadline = time.monotonic() + 30  # (/readyz reads the last of its periodic checks)
    while not all(d["ok"] for d in client.get("/readyz").json()["databases"]):
        assert time.monotonic() < deadline, client.get("/readyz").text
        time.sleep(0.2)


def test_adding_a_worker_and_rebalancing_while_searching_changes_no_answer(own_cluster, loaded):
    client, names = loaded
    names = [*names, SPLIT]
    expected = answers(client, names)
    own_cluster.up(WORKERS + 1, progress=False)
    failures: list[str] = []
    done = threading.Event()
    searched = [0]

    def keep_searching() -> None:
        with httpx.Client(base_url=client.base_url, headers=client.headers, timeout=60) as http:
            while not done.is_set():
                for name in names:
                    response = http.post("/api/rag/search", json=search_body(name))
                    searched[0] += 1
                    if response.status_code != 200:
                        failures.append(f"{name}: {response.status_code} {response.text}")
                    elif found := differences(response.json(), expected[name]):
                        failures.append(f"{name}: {found}")

    searchers = [threading.Thread(target=keep_searching) for _ in range(2)]
    for searcher in searchers:
        searcher.start()
    try:
        started = searched[0]
        moves = own_cluster.rebalance(progress=False)
        during = searched[0] - started
    finally:
        done.set()
        for searcher in searchers:
            searcher.join()
    assert moves > 0
    assert failures == []
    assert during > len(names)
    newest = own_cluster.status()[-1]
    assert newest.name == f"worker-{WORKERS + 1}" and newest.collections
    assert differences(answers(client, names), expected) == []
