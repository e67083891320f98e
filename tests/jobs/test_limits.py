"""Inputs past the limits cost bounded memory: a 100 MB single-line file is taken in
(spooled, copied into the job queue a MiB at a time) and refused by its job with a clear
error, without being read whole; the service grows by far less than the file."""

from __future__ import annotations

import threading
import time

import psutil

SERVICE_ENV = {"RAG_EMBEDDER": "none", "RAG_MAX_DOCUMENT_CHARS": "1000000",
               "RAG_MAX_FILE_BYTES": str(200 * 1024 * 1024)}  # fmt: skip
MB = 1024 * 1024


class PeakRss:
    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.before = self.peak = self.process.memory_info().rss
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.is_set():
            self.peak = max(self.peak, self.process.memory_info().rss)
            time.sleep(0.01)

    def stop(self) -> float:
        self.done.set()
        self.thread.join()
        return (self.peak - self.before) / MB


def test_a_100_mb_single_line_file_is_refused_in_bounded_memory(service, client, tmp_path):
    path = tmp_path / "one-line.txt"
    with path.open("wb") as out:
        for _ in range(100):
            out.write(b"word " * (MB // 5))
    assert service.process is not None
    rss = PeakRss(service.process.pid)
    with path.open("rb") as handle:
        r = client.post("/api/rag/documents/upload", files=[("files", ("one-line.txt", handle))])
    assert r.status_code == 202, r.text
    deadline = time.monotonic() + 300
    while (job := client.get(r.headers["location"]).json()["job"])["status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    grown = rss.stop()
    item = job["items"][0]
    assert item["status"] == "failed"
    assert "the text of a document is at most 1,000,000 characters" in item["error"]
    assert grown < 60, f"the service grew by {grown:.0f} MB"
