"""A split collection (stored as parts: on the cluster, each on a worker of its own)
answers every search as the same documents in a whole collection do: the same rows and
scores (1e-9) in every mode (reciprocal rank fusion included), explanations and ranks,
facets, one-space searches; its documents are read, replaced, deleted and signalled as a whole
collection's; what a split collection cannot do says so."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest

from app.cluster.local import LocalCluster

from .oracle import AUX, AUX_DIMS, corpus, differences, searches, service_client, store, unit

PREFIX = "spl"
DOCS = (3, 130, 20)  # seed, documents, chunks each: 2,600 chunks, past the scan threshold
PARTS = 3
FIELDS = ["tags", "src", "doc_id", "metadata.team", "metadata.rank", "metadata.lang"]
FACETS = [
    {"fields": FIELDS, "limit": 5},
    {"fields": FIELDS, "limit": 100, "tags_any": ["alpha", "beta"]},
    {"fields": FIELDS, "filter": {"team": "red"}, "limit": 3},
    {"fields": FIELDS, "query": "river lantern", "w_cos": 0, "w_lex": 1, "w_rec": 0, "w_sig": 0},
]
# what differs by design: each part chooses its own strategy (a part may be scanned where
# the whole collection is walked), and the collection's name
IGNORED = {"query_metadata", "collection"}


def create(client: httpx.Client, name: str, parts: int) -> None:
    made = client.post("/api/rag/collections", json={"name": name, "parts": parts})
    assert made.status_code == 201, made.text
    assert made.json()["collection"]["parts"] == parts


def fill(client: httpx.Client, split: str, whole: str | None) -> None:
    added = client.post("/api/rag/spaces", json={"name": AUX, "dims": AUX_DIMS})
    assert added.status_code in (201, 409), added.text
    create(client, split, PARTS)
    docs = corpus(*DOCS[:1], PREFIX, *DOCS[1:])
    store(client, split, docs)
    if whole is not None:
        store(client, whole, docs)


def answer(client: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, (path, body, response.text)
    return {k: v for k, v in response.json().items() if k not in IGNORED}


def alike(left: httpx.Client, right: httpx.Client, whole: str, split: str) -> None:
    """Every search mode, why-not, facets and one-space searches: the same answers."""
    bodies = searches(PREFIX)
    for body in bodies:
        expected = answer(left, "/api/rag/search", {**body, "collection": whole})
        got = answer(right, "/api/rag/search", {**body, "collection": split})
        assert expected["rows"], body
        assert differences(expected, got) == [], body
    top = answer(left, "/api/rag/search", {**bodies[0], "collection": whole, "k": 40})
    for body in (bodies[0], bodies[3], bodies[13], bodies[18]):
        for chunk_id in [row["chunk_id"] for row in top["rows"]][::7]:
            asked = {**body, "chunk_id": chunk_id}
            expected = answer(left, "/api/rag/explain", {**asked, "collection": whole})
            got = answer(right, "/api/rag/explain", {**asked, "collection": split})
            assert differences(expected, got) == [], (body, chunk_id)
    for body in FACETS:
        expected = answer(left, "/api/rag/facets", {**body, "collection": whole})
        got = answer(right, "/api/rag/facets", {**body, "collection": split})
        assert expected["chunks"] > 0 and expected["exact"], body
        assert differences(expected, got) == [], body
    for space, vector in (("default", unit(5, 384)), (AUX, unit(6, AUX_DIMS))):
        for exact in (True, False):
            body = {"query_embedding": vector, "top_k": 12, "exact": exact,
                    "tags_any": ["alpha", "delta"]}  # fmt: skip
            path = f"/api/rag/search/space/{space}"
            expected = answer(left, path, {**body, "collection": whole})
            got = answer(right, path, {**body, "collection": split})
            assert expected["results"]
            assert differences(expected, got) == [], (space, exact)


@pytest.fixture(scope="module")
def single(db_url: str) -> Iterator[httpx.Client]:
    with service_client(db_url) as client:
        fill(client, "split", "whole")
        yield client


def test_a_split_collection_answers_as_a_whole_one(single):
    alike(single, single, "whole", "split")


def test_a_split_collection_is_listed_once_with_its_counts(single):
    every = {c["name"]: c for c in single.get("/api/rag/collections").json()["collections"]}
    assert not [name for name in every if "." in name]
    listed = {name: every[name] for name in ("whole", "split")}
    whole, split = listed["whole"], listed["split"]
    assert (split["parts"], whole["parts"]) == (PARTS, 1)
    assert (split["documents"], split["chunks"]) == (whole["documents"], whole["chunks"])
    detail = single.get("/api/rag/collections/split").json()["collection"]
    assert (
        detail["top_tags"]
        == single.get("/api/rag/collections/whole").json()["collection"]["top_tags"]
    )
    # a part is no collection a client can name
    assert single.get("/api/rag/collections/split.1").status_code == 400
    stats = single.get("/api/rag/stats", params={"collection": "split"}).json()
    assert (
        stats["spaces"]
        == single.get("/api/rag/stats", params={"collection": "whole"}).json()["spaces"]
    )


def test_the_parts_hold_the_documents_each_once(single, db_url):
    with psycopg.connect(db_url) as conn:
        held = conn.execute(
            "SELECT c.name, count(*) FROM rag.documents d JOIN rag.collections c "
            "ON c.id = d.collection_id WHERE c.name LIKE 'split%' GROUP BY c.name ORDER BY 1"
        ).fetchall()
    assert [name for name, _ in held] == [f"split.{n}" for n in range(1, PARTS + 1)]
    assert sum(n for _, n in held) == DOCS[1]
    assert min(n for _, n in held) > DOCS[1] / PARTS / 2  # spread, not piled on one part


def test_documents_of_a_split_collection_read_replace_and_delete(single):
    doc = corpus(99, "rw", 1, 4)[0]
    assert single.post("/api/rag/documents", json={**doc, "collection": "split"}).status_code == 200
    read = single.get(f"/api/rag/documents/{doc['doc_id']}", params={"collection": "split"})
    assert read.status_code == 200 and len(read.json()["chunks"]) == 4
    fewer = {**doc, "chunks": doc["chunks"][:2], "collection": "split"}
    replaced = single.post("/api/rag/documents", json=fewer).json()
    assert replaced["replaced_chunks"] == 4
    # a chunk_id is the whole collection's, whichever part holds it
    other = corpus(98, "rw2", 1, 1)[0]
    other["chunks"][0]["chunk_id"] = doc["chunks"][0]["chunk_id"]
    clash = single.post("/api/rag/documents", json={**other, "collection": "split"})
    assert clash.status_code == 409 and doc["doc_id"] in clash.text
    signal = single.post("/api/rag/signals", json={
        "collection": "split",
        "updates": [{"chunk_id": doc["chunks"][1]["chunk_id"], "signal": 0.75}]})  # fmt: skip
    assert signal.status_code == 200 and signal.json()["chunks"][0]["signal"] == 0.75
    gone = single.delete(f"/api/rag/documents/{doc['doc_id']}", params={"collection": "split"})
    assert gone.status_code == 200 and gone.json()["deleted_chunks"] == 2
    missing = single.get(f"/api/rag/documents/{doc['doc_id']}", params={"collection": "split"})
    assert missing.status_code == 404


def test_what_a_split_collection_cannot_do_says_so(single, db_url):
    with psycopg.connect(db_url) as conn, pytest.raises(psycopg.Error, match="split into 3 parts"):
        conn.execute(
            "SELECT api.rag_topk_weighted(ARRAY[%s::vector], ARRAY['default'], ARRAY[1.0], 5, "
            "1, 0, 0, p_collection => 'split')",
            (str(unit(1, 384)),),
        )


def test_parts_must_be_a_small_whole_number(single):
    for parts in (0, 65, 2.5, "two", None):
        made = single.post("/api/rag/collections", json={"name": "badparts", "parts": parts})
        assert made.status_code == 400 and "parts must be an integer from 1 to 64" in made.text


def test_deleting_a_split_collection_deletes_its_parts(single, db_url):
    create(single, "short-lived", 2)
    store(single, "short-lived", corpus(5, "sl", 6, 2))
    gone = single.delete("/api/rag/collections/short-lived")
    assert gone.status_code == 200 and gone.json()["deleted_chunks"] == 12
    with psycopg.connect(db_url) as conn:
        left = conn.execute("SELECT count(*) FROM rag.collections WHERE name LIKE 'short-lived%'")
        assert left.fetchone() == (0,)
    create(single, "short-lived", 2)  # the name (and its parts' names) free again


@pytest.fixture(scope="module")
def clustered(cluster: LocalCluster, single: httpx.Client) -> Iterator[httpx.Client]:
    with service_client(cluster.url) as client:
        fill(client, "split", None)
        yield client


def test_a_split_collection_on_the_cluster_answers_as_a_whole_one(single, clustered):
    alike(single, clustered, "whole", "split")


def test_the_parts_are_on_different_workers(cluster, clustered):
    with psycopg.connect(cluster.url) as conn:
        workers = conn.execute(
            "SELECT n.nodeport FROM rag.collections c JOIN pg_dist_placement p ON p.shardid = "
            "get_shard_id_for_distribution_column('rag.documents', c.id) "
            "JOIN pg_dist_node n ON n.groupid = p.groupid WHERE c.name LIKE 'split.%'"
        ).fetchall()
    assert len(workers) == PARTS and len({port for (port,) in workers}) == 2


def test_a_split_collection_on_the_cluster_is_listed_and_deleted(single, clustered):
    for client in (single, clustered):
        detail = client.get("/api/rag/collections/split")
        assert detail.status_code == 200, detail.text
    details = [
        {k: v for k, v in c.get("/api/rag/collections/split").json()["collection"].items()
         if k != "created_at"}
        for c in (single, clustered)
    ]  # fmt: skip
    assert details[0] == details[1]
    create(clustered, "brief", 2)
    store(clustered, "brief", corpus(5, "br", 6, 2))
    gone = clustered.delete("/api/rag/collections/brief")
    assert gone.status_code == 200 and gone.json()["deleted_chunks"] == 12
    assert clustered.get("/api/rag/collections/brief").status_code == 404


def test_a_batch_into_a_split_collection_is_stored_whole_or_not_at_all(single, db_url, tmp_path):
    first = corpus(97, "atom", 1, 2)[0]
    assert (
        single.post("/api/rag/documents", json={**first, "collection": "split"}).status_code == 200
    )
    batch = corpus(96, "batch", 6, 2)  # over both parts
    batch[-1]["chunks"][0]["chunk_id"] = first["chunks"][0]["chunk_id"]  # taken by another
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(json.dumps({**doc, "collection": "split"}) + "\n" for doc in batch))
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "ingest", str(path), "--rebuild-index", "never"],
        env={"DATABASE_URL": db_url, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode != 0 and first["doc_id"] in done.stderr, done.stdout + done.stderr
    for doc in batch:
        read = single.get(f"/api/rag/documents/{doc['doc_id']}", params={"collection": "split"})
        assert read.status_code == 404, doc["doc_id"]


def test_a_statement_over_the_parts_that_fails_is_asked_part_by_part(single, db_url):
    """(The one statement over every part meets a function gone from under it, as it can
    while Citus moves a shard group: the parts are asked one by one, same answer.)"""
    body = {**searches(PREFIX)[3], "k": 12, "collection": "split"}
    expected = answer(single, "/api/rag/search", body)
    with psycopg.connect(db_url, autocommit=True) as conn:
        definition = conn.execute(
            "SELECT pg_get_functiondef('api.topk_part(integer, api.search_plan)'::regprocedure)"
        ).fetchone()[0]
        conn.execute("DROP FUNCTION api.topk_part(integer, api.search_plan)")
        try:
            for _ in range(3):  # (every pooled connection meets it in turn)
                got = answer(single, "/api/rag/search", body)
                assert differences(expected, got) == []
        finally:
            conn.execute(definition)
