"""``ragsearch ingest PATH...`` on files, folders and globs (a document per file, read by
its kind), and on JSONL whose chunks carry no vectors (embedded by the default space's
embedder in the loading process)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from documents import pdf_with_pages


def _run(
    args: list[str], url: str, embedder: str = "none", **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "ingest", *args],
        env={"DATABASE_URL": url, "PATH": "/usr/bin:/bin", "RAG_EMBEDDER": embedder, **env},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.fixture
def tree(tmp_path: Path, run_id: str) -> Path:
    root = tmp_path / run_id
    (root / "guides" / "deep").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "guides" / "espresso.md").write_text("# Espresso\n\nPulled at nine bars.\n")
    (root / "guides" / "deep" / "page.html").write_text("<title>Tea</title><p>Green tea.</p>")
    (root / "guides" / "manual.pdf").write_bytes(pdf_with_pages([["Grinder manual."]]))
    (root / "guides" / "photo.png").write_bytes(b"\x89PNG")
    (root / ".hidden" / "secret.md").write_text("# Hidden\n")
    (root / "notes.txt").write_text("Plain notes.\n\nSecond paragraph.")
    return root


def _docs(url: str, prefix: str) -> dict[str, tuple[str, int, str | None]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT d.doc_id, d.title, count(c.id), d.content_type FROM rag.documents d "
            "JOIN rag.chunks c ON c.document_id = d.id WHERE d.doc_id LIKE %s "
            "GROUP BY d.doc_id, d.title, d.content_type",
            (prefix + "%",),
        ).fetchall()
    return {doc_id: (title, n, kind) for doc_id, title, n, kind in rows}


def test_a_folder_is_loaded_a_document_per_file_it_can_read(db_url, tree):
    done = _run([str(tree)], db_url)
    assert done.returncode == 0, done.stderr
    assert "stored 4 of 4 files as documents" in done.stdout
    assert "1 files of other kinds left out" in done.stdout
    assert "file/s" in done.stderr  # the progress bar
    docs = _docs(db_url, str(tree))
    stored = sum(n for _, n, _ in docs.values())
    # the bar ends on what was stored (it ended on chunks=0: the last batch is stored late)
    assert re.findall(r"chunks=(\d[\d,]*\d|\d)", done.stderr)[-1] == f"{stored:,}"
    assert docs[f"{tree}/guides/espresso.md"][0] == "Espresso"
    assert docs[f"{tree}/guides/deep/page.html"][::2] == ("Tea", "text/html")
    assert docs[f"{tree}/guides/manual.pdf"][2] == "application/pdf"
    assert docs[f"{tree}/notes.txt"][0] == "notes.txt"
    assert not any("secret" in doc_id for doc_id in docs)


def test_globs_resume_and_failures(db_url, tree):
    (tree / "guides" / "broken.pdf").write_bytes(b"%PDF-1.4 nothing")
    pattern = f"{tree}/**/*.md"
    first = _run([pattern, f"{tree}/guides/broken.pdf", "--doc-id-prefix", "g:"], db_url)
    assert first.returncode == 1
    assert "stored 1 of 2 files" in first.stdout and "1 failed" in first.stdout
    assert "broken.pdf: the PDF cannot be read" in first.stderr
    said = [line for line in first.stderr.splitlines() if "cannot be read" in line]
    assert said and all(line.count("broken.pdf") == 1 for line in said), said  # once
    assert list(_docs(db_url, f"g:{tree}")) == [f"g:{tree}/guides/espresso.md"]
    again = _run([pattern, "--doc-id-prefix", "g:", "--resume"], db_url)
    assert again.returncode == 0 and "1 unchanged (skipped)" in again.stdout
    (tree / "guides" / "espresso.md").write_text("# Espresso\n\nChanged.\n")
    changed = _run([pattern, "--doc-id-prefix", "g:", "--resume"], db_url)
    assert "stored 1 of 1 files" in changed.stdout


def test_empty_files_of_a_folder_are_left_out_not_failed(db_url, tree):
    (tree / "guides" / "__init__.md").write_bytes(b"")
    (tree / "blank.txt").write_text("  \n\t\n")
    done = _run([str(tree), "--doc-id-prefix", "e:"], db_url)
    assert done.returncode == 0, done.stdout + done.stderr  # it was 1: two files "failed"
    assert "stored 4 of 6 files as documents" in done.stdout
    assert "2 empty files left out" in done.stdout and "failed" not in done.stdout
    assert len(_docs(db_url, f"e:{tree}")) == 4
    (tree / "scan.pdf").write_bytes(pdf_with_pages([[]]))  # bytes, but no text: a failure
    scanned = _run([str(tree / "scan.pdf")], db_url)
    assert scanned.returncode == 1 and "scan.pdf: the file holds no text" in scanned.stderr


def test_a_file_too_large_is_named_once(db_url, tree):
    big = tree / "long.txt"
    big.write_text("Plain words. " * 100)
    done = _run([str(big)], db_url, RAG_MAX_FILE_BYTES="1024")
    assert done.returncode == 1, done.stderr
    said = [line for line in done.stderr.splitlines() if "larger than 1024 bytes" in line]
    assert said and all(line.count(str(big)) == 1 for line in said), said  # it was twice


def test_a_named_file_of_another_kind_is_refused(db_url, tree):
    done = _run([f"{tree}/guides/photo.png"], db_url)
    assert done.returncode == 2 and "application/pdf" in done.stderr


@pytest.mark.parametrize("name", ["zero.txt", "zero.jsonl", "pipe.txt"])
def test_a_device_or_a_pipe_is_not_read(db_url, tree, name):
    # /dev/zero read until the machine ran out of memory; a pipe waited for ever
    special = tree / name
    if name == "pipe.txt":
        os.mkfifo(special)
    else:
        special.symlink_to("/dev/zero")
    done = _run([str(special)], db_url)
    assert done.returncode == 2, done.stderr
    assert f"{special}: not a regular file (devices, pipes and sockets are not read)" in (
        done.stderr
    )
    done = _run([str(tree)], db_url)  # in a folder: left out with the other kinds
    assert done.returncode == 0, done.stderr
    assert "stored 4 of 4 files" in done.stdout and "2 files of other kinds left out" in (
        done.stdout
    )


@pytest.mark.parametrize("first", ["chunks", "text"])
def test_jsonl_chunks_without_vectors_are_embedded(db_url, tmp_path, run_id, first):
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("SELECT api.create_collection(%s)", (run_id,))
    path = tmp_path / "text.jsonl"
    docs = [
        {
            "doc_id": f"{run_id}-{n}",
            "title": f"Doc {n}",
            "collection": run_id,
            "chunks": [{"chunk": f"{run_id} text number {n}"}],
        }
        for n in range(3)
    ]
    whole = {"doc_id": f"{run_id}-whole", "text": "# Whole\n\nA document split here.",
             "content_type": "text/markdown", "collection": run_id}  # fmt: skip
    docs = [whole, *docs] if first == "text" else [*docs, whole]
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    done = _run([str(path)], db_url, embedder="local")
    assert done.returncode == 0, done.stderr
    assert "embedded=" in done.stderr  # the bar counts vectors as they are made
    # Vectors the load makes count as vectors it brings: the empty collection's index of
    # the embedded space is built once, after the load, not row by row during it.
    assert f"rebuilt HNSW index of default/{run_id}" in done.stdout
    with psycopg.connect(db_url) as conn:
        stored, vectors = conn.execute(
            "SELECT count(*), count(v.chunk_pk) FROM rag.chunks c LEFT JOIN rag.vectors_1 v "
            "ON v.chunk_pk = c.id WHERE c.doc_id LIKE %s", (run_id + "-%",),
        ).fetchone()  # fmt: skip
    assert stored == vectors == 4
