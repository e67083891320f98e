"""``ragsearch ingest FILE.jsonl``: bulk loading through COPY, with progress and errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import psycopg
import pytest


def _run(args: list[str], url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        env={"DATABASE_URL": url, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def _write(path, docs) -> None:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))


def _docs(prefix: str, n: int, chunks: int = 4) -> list[dict]:
    rng = np.random.default_rng(0)
    return [
        {
            "doc_id": f"{prefix}-{i}",
            "src": f"file:///corpus/{prefix}/{i}.md",
            "chunks": [
                {"chunk": f"doc {i} chunk {c}", "embedding": rng.standard_normal(384).tolist()}
                for c in range(chunks)
            ],
        }
        for i in range(n)
    ]


@pytest.fixture
def counts(db_url):
    def count(prefix: str) -> tuple[int, int, int]:
        with psycopg.connect(db_url) as conn:
            row = conn.execute(
                "SELECT count(DISTINCT c.doc_id), count(*), count(v.chunk_pk) FROM rag.chunks c"
                " LEFT JOIN rag.vectors_1 v ON v.chunk_pk = c.id WHERE c.doc_id LIKE %s",
                (prefix + "-%",),
            ).fetchone()
            return tuple(row)

    return count


def test_ingest_file_in_batches(db_url, tmp_path, counts):
    path = tmp_path / "corpus.jsonl"
    _write(path, _docs("bulk", 60))
    done = _run(["ingest", str(path), "--batch-chunks", "50"], db_url)
    assert done.returncode == 0, done.stderr
    assert "stored 60 documents, 240 chunks" in done.stdout
    assert "ingest corpus.jsonl" in done.stderr  # the progress bar
    assert counts("bulk") == (60, 240, 240)
    again = _run(["ingest", str(path)], db_url)  # re-ingest replaces, never duplicates
    assert "(240 replaced)" in again.stdout
    assert counts("bulk") == (60, 240, 240)


def test_a_bad_line_stops_with_its_number_after_storing_the_lines_before(db_url, tmp_path, counts):
    docs = _docs("badline", 5)
    docs[3]["chunks"][1]["embedding"] = [0.1] * 7
    path = tmp_path / "bad.jsonl"
    _write(path, docs)
    done = _run(["ingest", str(path)], db_url)
    assert done.returncode == 1
    assert (
        f"{path}:4: chunks[1] ('badline-3-chunk-1'): embedding: expected 384 numbers, got 7"
        in done.stderr
    )
    assert counts("badline") == (3, 12, 12)


def test_invalid_json_line(db_url, tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"doc_id": "ok-1", "chunks": []}\n{broken\n')
    done = _run(["ingest", str(path)], db_url)
    assert done.returncode == 1
    assert ":2: request body is not valid JSON" in done.stderr


def test_ingest_stores_every_kind_of_vector_and_rebuilds_their_indexes(db_url, tmp_path):
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("SELECT api.register_space('bulk_sparse', 50, '', '', 8, 32, 'sparse')")
        conn.execute("SELECT api.register_space('bulk_tokens', 4, '', '', 8, 32, "
                     "'multivector', 'cosine', 8)")  # fmt: skip
    rng = np.random.default_rng(3)
    docs = [{"doc_id": f"kinds-{i}", "chunks": [{"chunk": f"doc {i}", "embeddings": {
        "bulk_sparse": {"indices": [i % 50, 49], "values": [1.0, 0.5]} if i % 50 != 49
        else {"indices": [49], "values": [1.0]},
        "bulk_tokens": rng.standard_normal((1 + i % 4, 4)).tolist()}}]}
        for i in range(120)]  # fmt: skip
    path = tmp_path / "kinds.jsonl"
    _write(path, docs)
    done = _run(["ingest", str(path), "--rebuild-index", "always"], db_url)
    assert done.returncode == 0, done.stderr
    with psycopg.connect(db_url) as conn:
        counts = conn.execute(
            "SELECT (SELECT count(*) FROM rag.vectors_2), (SELECT count(*) FROM rag.vectors_3),"
            " (SELECT count(DISTINCT chunk_pk) FROM rag.vectors_3)"
        ).fetchone()
        indexes = conn.execute(
            "SELECT count(*) FROM api.missing_space_indexes() m WHERE m.collection = 'default'"
        ).fetchone()[0]
    assert counts == (120, sum(1 + i % 4 for i in range(120)), 120)
    assert indexes == 0


def _vacuumed(conn: psycopg.Connection, collection: str) -> dict[str, tuple]:
    """Each partition of a collection: (pages, all-visible pages, last manual VACUUM,
    analyzed by hand)."""
    return {
        name: row
        for name, *row in conn.execute(
            "SELECT c.relname, c.relpages, c.relallvisible, s.last_vacuum,"
            " s.last_analyze IS NOT NULL"
            " FROM api.collection_partitions(api.collection_id(%s)) AS p(name)"
            " JOIN pg_class c ON c.relname = p.name"
            " AND c.relnamespace = 'rag'::regnamespace"
            " JOIN pg_stat_user_tables s ON s.relid = c.oid",
            (collection,),
        )
    }


def test_a_load_leaves_the_partitions_it_wrote_visible_and_analyzed(db_url, tmp_path):
    # index-only scans skip the heap only for pages the visibility map marks, and a
    # fresh collection's statistics decide its plans: neither waits for autovacuum
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("SELECT api.create_collection('elsewhere')")
    elsewhere = tmp_path / "elsewhere.jsonl"
    _write(elsewhere, [{**d, "collection": "elsewhere"} for d in _docs("away", 20)])
    assert _run(["ingest", str(elsewhere)], db_url).returncode == 0
    with psycopg.connect(db_url) as conn:
        before = _vacuumed(conn, "elsewhere")
    path = tmp_path / "fresh.jsonl"
    _write(path, _docs("fresh", 300))
    done = _run(["ingest", str(path)], db_url)
    assert done.returncode == 0, done.stderr
    with psycopg.connect(db_url) as conn:
        loaded = _vacuumed(conn, "default")
        untouched = _vacuumed(conn, "elsewhere")
    assert {"chunks_1", "lex_postings_1", "vectors_1_1"} <= set(loaded)
    for name, (pages, visible, vacuumed, analyzed) in loaded.items():
        assert visible == pages and vacuumed is not None and analyzed, name
    assert loaded["vectors_1_1"][0] > 0
    # another collection's partitions are left alone (its own load vacuumed them)
    assert all(row[2] is not None for row in before.values())
    assert untouched == before
