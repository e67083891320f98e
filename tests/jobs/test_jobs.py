"""Files and large documents in, as jobs: uploads (stored before the answer when small,
queued as a job when large or asked), a job's progress and items with each failure's
reason, cancelling, and the limits an upload is held to."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Iterator

import httpx
import pytest

from documents import pdf_with_pages
from embed_server import embed_server

SERVICE_ENV = {
    "RAG_EMBEDDER": "none", "RAG_JOB_LEASE_SECONDS": "3", "RAG_SYNC_EMBED_MAX_CHUNKS": "6",
    "RAG_MAX_FILE_BYTES": "300000", "RAG_MAX_UPLOAD_BYTES": "2000000",
    "RAG_SYNC_MAX_BYTES": "100000", "RAG_CHUNK_TOKENS": "24", "RAG_CHUNK_OVERLAP_TOKENS": "0",
    "RAG_MAX_UPLOAD_FILES": "50",
}  # fmt: skip


@pytest.fixture(scope="module")
def embedder(client) -> Iterator[httpx.Client]:
    with embed_server("--hash", "8") as url:
        space = {"name": "remote", "dims": 8, "embedder": {
            "kind": "openai", "url": url, "model": "hash-8", "batch_size": 2, "concurrency": 1,
            "timeout": 5, "retries": 1}}  # fmt: skip
        assert client.post("/api/rag/spaces", json=space).status_code == 201
        with httpx.Client(base_url=url.removesuffix("/v1")) as control:
            yield control


@pytest.fixture
def faults(embedder) -> Iterator[httpx.Client]:
    embedder.post("/reset")
    yield embedder
    embedder.post("/release")
    embedder.post("/reset")


def wait_for(client: httpx.Client, location: str, states=("done", "failed", "cancelled")) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = client.get(location).json()["job"]
        if job["status"] in states:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job still {job['status']}: {job}")


def _paragraphs(n: int) -> str:
    return "\n\n".join(f"Paragraph {i} talks about topic number {i} at some length here."
                       for i in range(n))  # fmt: skip


def test_a_document_asked_to_run_async_is_a_job(client, faults, run_id):
    r = client.post("/api/rag/documents", params={"async": "true"},
                    json={"doc_id": f"{run_id}-a", "text": "Short text."})  # fmt: skip
    assert r.status_code == 202, r.text
    assert r.headers["location"] == f"/api/rag/jobs/{r.json()['job']['id']}"
    job = wait_for(client, r.headers["location"])
    assert job["status"] == "done" and job["kind"] == "ingest" and job["collection"] == "default"
    assert job["progress"]["items"] == {"total": 1, "done": 1, "failed": 0}
    assert job["items"][0]["doc_id"] == f"{run_id}-a" and job["items"][0]["status"] == "done"
    stored = client.get(f"/api/rag/documents/{run_id}-a").json()
    assert stored["chunks"][0]["spaces"] == ["remote"]


def test_a_document_with_many_chunks_to_embed_is_a_job(client, faults, run_id):
    r = client.post("/api/rag/documents", json={"doc_id": f"{run_id}-big", "text": _paragraphs(30)})
    assert r.status_code == 202, r.text
    job = wait_for(client, r.headers["location"])
    chunks = job["progress"]["chunks"]
    assert chunks["stored"] == chunks["total"] > 6 and chunks["embedded"] == chunks["total"]
    small = client.post("/api/rag/documents", json={"doc_id": f"{run_id}-s", "text": "One."})
    assert small.status_code == 200  # under RAG_SYNC_EMBED_MAX_CHUNKS: stored before the answer


def _files(*files: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes]]]:
    return [("files", (name, data)) for name, data in files]


def test_small_uploads_are_stored_before_the_answer(client, faults, run_id):
    pdf = pdf_with_pages([["Espresso is pulled under pressure."], ["Crema forms on top."]],
                         title="Espresso notes")  # fmt: skip
    files = _files(("guide.md", b"# Guide\n\nSome *markdown* text.\n"),
                   ("page.html", b"<title>Page</title><p>Hello <b>web</b></p>"),
                   ("notes.pdf", pdf), ("broken.pdf", b"%PDF-1.4 not really a pdf"),
                   ("script.py", b"def f():\n    return 1\n"))  # fmt: skip
    r = client.post(
        "/api/rag/documents/upload",
        files=files,
        data={"options": f'{{"doc_id_prefix": "{run_id}/", "tags": ["up"]}}'},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] is False and body["failed"] == 1
    results = {d["file"]: d for d in body["documents"]}
    assert "cannot be read" in results["broken.pdf"]["error"]
    assert results["broken.pdf"]["status"] == 400
    assert results["notes.pdf"]["doc_id"] == f"{run_id}/notes.pdf"
    doc = client.get(f"/api/rag/documents/{run_id}/notes.pdf").json()
    assert doc["title"] == "Espresso notes" and doc["content_type"] == "application/pdf"
    assert doc["tags"] == ["up"] and doc["src"] == "notes.pdf"
    assert [c["position"]["heading_path"] for c in doc["chunks"]] == [["page 1"], ["page 2"]]
    page = client.get(f"/api/rag/documents/{run_id}/page.html").json()
    assert page["title"] == "Page" and page["chunks"][0]["chunk"] == "Hello web"
    code = client.get(f"/api/rag/documents/{run_id}/script.py").json()
    assert code["content_type"] == "text/x-code"


def test_a_small_upload_with_many_chunks_to_embed_is_a_job(client, faults, run_id):
    text = _paragraphs(30).encode()  # a few KB, more chunks than RAG_SYNC_EMBED_MAX_CHUNKS
    assert len(text) < int(SERVICE_ENV["RAG_SYNC_MAX_BYTES"])
    archive = _zip({"short.md": b"# Short\n\nOne line.", "bad.pdf": b"%PDF-1.4 garbage"})
    files = _files(("long.md", text), ("bundle.zip", archive))
    r = client.post("/api/rag/documents/upload", files=files,
                    data={"options": f'{{"doc_id_prefix": "{run_id}-"}}'})  # fmt: skip
    assert r.status_code == 202, r.text
    job = wait_for(client, r.headers["location"])
    assert job["status"] == "done"
    assert job["progress"]["items"] == {"total": 3, "done": 2, "failed": 1}
    items = {item["name"]: item for item in job["items"]}
    assert "cannot be read" in items["bad.pdf"]["error"]
    assert job["progress"]["chunks"]["embedded"] > int(SERVICE_ENV["RAG_SYNC_EMBED_MAX_CHUNKS"])
    stored = client.get(f"/api/rag/documents/{run_id}-long.md").json()
    assert len(stored["chunks"]) == job["progress"]["chunks"]["total"] - 1
    assert client.get(f"/api/rag/documents/{run_id}-short.md").status_code == 200


def test_a_large_upload_is_a_job_whose_failed_files_say_why(client, faults, run_id):
    big = _paragraphs(40).encode() + b"\n" + b"x " * 60_000  # past RAG_SYNC_MAX_BYTES
    files = _files(("big.txt", big), ("bad.pdf", b"%PDF-1.4 garbage"), ("ok.md", b"# Ok\n\nFine."))
    r = client.post("/api/rag/documents/upload", files=files,
                    data={"options": f'{{"doc_id_prefix": "{run_id}-"}}'})  # fmt: skip
    assert r.status_code == 202, r.text
    job = wait_for(client, r.headers["location"])
    assert job["status"] == "done"
    items = {item["name"]: item for item in job["items"]}
    assert items["big.txt"]["status"] == "done" and items["ok.md"]["status"] == "done"
    assert items["bad.pdf"]["status"] == "failed" and "cannot be read" in items["bad.pdf"]["error"]
    assert job["progress"]["items"] == {"total": 3, "done": 2, "failed": 1}
    listed = client.get("/api/rag/jobs", params={"status": "done"}).json()["jobs"]
    assert job["id"] in [j["id"] for j in listed]


@pytest.mark.parametrize(
    ("files", "status", "words"),
    [(_files(("photo.png", b"\x89PNG")), 415, "application/pdf"),
     (_files(("big.txt", b"a" * 300_001)), 413, "RAG_MAX_FILE_BYTES"),
     (_files(*[(f"f{n}.txt", b"a" * 290_000) for n in range(7)]), 413, "RAG_MAX_UPLOAD_BYTES"),
     ([("options", (None, b"{}"))], 400, "files"),
     # each was reported stored, and the last alone was kept
     (_files(("dup.txt", b"first"), ("dup.txt", b"second")), 400,
      "files: 'dup.txt' is sent twice")],
    ids=["unsupported type", "file too large", "upload too large", "no file", "a name twice"],
)  # fmt: skip
def test_an_upload_past_the_rules_is_refused(client, run_id, files, status, words):
    r = client.post("/api/rag/documents/upload", files=files)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


def test_an_upload_must_be_multipart(client):
    r = client.post("/api/rag/documents/upload", json={"files": []})
    assert r.status_code == 415 and "multipart/form-data" in r.json()["error"]


def test_a_cancelled_job_stops_and_keeps_what_it_stored(client, faults, run_id):
    faults.post("/faults", json=["hold"])
    r = client.post(
        "/api/rag/documents",
        params={"async": "true"},
        json={"doc_id": f"{run_id}-c", "text": f"{run_id} " + _paragraphs(4)},
    )
    location = r.headers["location"]
    deadline = time.monotonic() + 30
    while faults.get("/stats").json()["held"] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    cancelled = client.post(location + "/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["job"]["cancel_requested"]
    faults.post("/release")
    job = wait_for(client, location)
    assert job["status"] == "cancelled" and job["items"][0]["status"] == "cancelled"
    assert client.get(f"/api/rag/documents/{run_id}-c").status_code == 404


def test_jobs_are_read_with_a_read_key_and_cancelled_with_a_write_key(service, client, run_id):
    r = client.post("/api/rag/documents", params={"async": "true"},
                    json={"doc_id": f"{run_id}-k", "text": "keyed"})  # fmt: skip
    location = r.headers["location"]
    read = {"Authorization": "Bearer test-read-key"}
    assert httpx.get(service.base_url + location, headers=read).status_code == 200
    assert httpx.post(service.base_url + location + "/cancel", headers=read).status_code == 403
    assert httpx.get(service.base_url + location).status_code == 401
    assert client.get("/api/rag/jobs/999999999").status_code == 404


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_archive_is_a_document_per_file_it_holds(client, faults, run_id):
    archive = _zip({"docs/guide.md": b"# Guide\n\nZipped guide.", "notes.txt": b"Zipped notes.",
                    "photo.png": b"\x89PNG", ".hidden/x.md": b"# x", "docs/": b""})  # fmt: skip
    r = client.post("/api/rag/documents/upload", files=_files(("bundle.zip", archive)),
                    data={"options": f'{{"doc_id_prefix": "{run_id}:"}}'})  # fmt: skip
    assert r.status_code == 200, r.text
    assert sorted(d["doc_id"] for d in r.json()["documents"]) == [
        f"{run_id}:docs/guide.md", f"{run_id}:notes.txt"]  # fmt: skip


@pytest.mark.parametrize(
    ("members", "words"),
    [({"zeros.txt": b"\0" * 1_000_000}, "bomb.zip/zeros.txt: unpacks to more than 300000"),
     ({f"z{n}.txt": b"a" * 290_000 for n in range(8)}, "bomb.zip: unpacks to more than 2000000"),
     ({"photo.png": b"\x89PNG"}, "holds no file of a kind"),
     ({f"m{n}.txt": b"x" for n in range(51)},
      "an upload holds at most 50 files, a zip archive's members counted (RAG_MAX_UPLOAD_FILES)"),
     ({f"{'n' * 60}{n}.txt": b"x" for n in range(400)}, "bomb.zip's directory alone is")],
    ids=["member past the file limit", "archive past the upload limit", "nothing to read",
         "too many members", "a directory too large to read"],
)  # fmt: skip
def test_a_zip_bomb_is_refused_as_it_unpacks(client, run_id, members, words):
    archive = _zip(members)
    assert len(archive) < 100_000  # small as sent
    r = client.post("/api/rag/documents/upload", files=_files(("bomb.zip", archive)))
    assert r.status_code in (413, 415) and words in r.json()["error"]


def test_deeply_nested_html_is_refused(client, run_id):
    html = "<div>" * 100_000 + "deep" + "</div>" * 100_000
    r = client.post(
        "/api/rag/documents",
        json={"doc_id": f"{run_id}-deep", "text": html, "content_type": "text/html"},
    )
    assert r.status_code == 400 and "deeper than 512" in r.json()["error"]


@pytest.mark.parametrize("run_as_job", [False, True])
def test_a_pdf_whose_character_map_gives_surrogates_is_stored(client, run_id, run_as_job):
    """A font's ToUnicode map that sends a code to a lone surrogate, and a NUL in the title:
    the page reads with U+FFFD there. Before, the upload answered 500 (the tokenizer's
    TypeError), and as a job that file failed the whole job, the files after it cancelled."""
    broken = pdf_with_pages([["ABAB hello"]], title="Broken\x00 map",
                            to_unicode={"41": "D800"})  # fmt: skip
    files = _files(("broken.pdf", broken), ("after.md", b"# After\n\nStill stored.\n"))
    options = {"options": f'{{"doc_id_prefix": "{run_id}/"}}'}
    r = client.post("/api/rag/documents/upload", files=files, data=options,
                    params={"async": str(run_as_job).lower()})  # fmt: skip
    assert r.status_code == (202 if run_as_job else 200), r.text
    if run_as_job:
        job = wait_for(client, r.headers["location"])
        assert job["status"] == "done" and job["progress"]["items"]["failed"] == 0, job
    doc = client.get(f"/api/rag/documents/{run_id}/broken.pdf").json()
    assert doc["title"] == "Broken map" and doc["chunks"][0]["chunk"] == "\ufffdB\ufffdB hello"
    assert client.get(f"/api/rag/documents/{run_id}/after.md").status_code == 200


def test_an_upload_to_no_collection_is_a_404(client, run_id):
    """Before, 200 with each file failed (404) inside: a 404 like a search's and a
    document's."""
    files = _files(("guide.md", b"# Guide\n\nText.\n"))
    r = client.post("/api/rag/documents/upload", files=files, params={"collection": "nope"})
    assert r.status_code == 404 and "no collection named 'nope'" in r.json()["error"], r.text


def test_upload_options_are_read_as_a_json_body_is(client, run_id):
    """An integer past 64 bits in the options' metadata is refused by name, as in a JSON
    document (before, it was stored as a float: 1.2345678901234568e+29)."""
    options = (
        f'{{"doc_id_prefix": "{run_id}/", "metadata": {{"a": 123456789012345678901234567890}}}}'
    )
    r = client.post("/api/rag/documents/upload", files=_files(("n.md", b"# N\n\nText.\n")),
                    data={"options": options})  # fmt: skip
    assert r.status_code == 400 and "64 bits" in r.json()["error"], r.text
    assert client.get(f"/api/rag/documents/{run_id}/n.md").status_code == 404


def test_upload_options_may_start_with_a_byte_order_mark(client, run_id):
    options = f'\ufeff{{"doc_id_prefix": "{run_id}/", "tags": ["bom"]}}'
    r = client.post("/api/rag/documents/upload", files=_files(("b.md", b"# B\n\nText.\n")),
                    data={"options": options})  # fmt: skip
    assert r.status_code == 200, r.text
    assert client.get(f"/api/rag/documents/{run_id}/b.md").json()["tags"] == ["bom"]


@pytest.mark.parametrize("count", [51, 80])
def test_an_upload_of_too_many_files_is_refused_naming_the_setting(client, run_id, count):
    files = _files(*((f"{run_id}-f{n}.txt", b"words") for n in range(count)))
    r = client.post("/api/rag/documents/upload", files=files)
    assert r.status_code == 413 and "at most 50 files" in r.json()["error"], r.text
    assert r.json()["setting"] == "RAG_MAX_UPLOAD_FILES"
    assert client.get(f"/api/rag/documents/{run_id}-f0.txt").status_code == 404


@pytest.mark.parametrize(
    ("options", "field", "says"),
    [('{"bogus": 1}', "options.bogus", "options: unknown field 'bogus'"),
     ('{"created_at": "0001-01-01T00:00:00Z"}', "options.created_at",
      "options: created_at must fall within")],
)  # fmt: skip
def test_a_bad_upload_option_is_named_as_an_option(client, run_id, options, field, says):
    name = f"{run_id}-opt.md"
    r = client.post("/api/rag/documents/upload", files=_files((name, b"# O\n\nText.\n")),
                    data={"options": options})  # fmt: skip
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and r.json()["error"].startswith(says), r.json()
    assert client.get(f"/api/rag/documents/{name}").status_code == 404
