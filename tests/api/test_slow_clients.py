"""Slow and vanishing clients, over raw sockets: connections that stall mid-headers or
mid-body are closed once RAG_HEADER_TIMEOUT / RAG_BODY_TIMEOUT pass (other clients are
served meanwhile); a client gone mid-body is one quiet 499 line, not an error."""

from __future__ import annotations

import json
import selectors
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import PgServer, ServiceProcess, service_on_own_database
from helpers import until

TIMEOUT_S = 2.0
STALLED = 150  # of each kind
QUERY = {"embedding": [0.1] * 384, "k": 3}


@pytest.fixture(scope="module")
def patient(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    env = {"RAG_HEADER_TIMEOUT": str(TIMEOUT_S), "RAG_BODY_TIMEOUT": str(TIMEOUT_S),
           "RAG_LOG_LEVEL": "info", "RAG_LOG_FORMAT": "json"}  # fmt: skip
    with service_on_own_database(pg, env) as service:
        yield service


def _connect(service: ServiceProcess, sent: bytes) -> socket.socket:
    address = urlsplit(service.base_url)
    sock = socket.create_connection((address.hostname, address.port), timeout=10)
    sock.sendall(sent)
    return sock


def _head(service: ServiceProcess, length: int) -> bytes:
    host = urlsplit(service.base_url).netloc
    head = (f"POST /api/rag/documents HTTP/1.1\r\nHost: {host}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n")  # fmt: skip
    return head.encode()


def _closed_after(sockets: list[socket.socket], started: float, limit: float) -> list[float]:
    """Seconds from ``started`` until the server closed each socket (those still open
    after ``limit`` seconds are left out)."""
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    closed: list[float] = []
    while len(closed) < len(sockets) and time.monotonic() - started < limit:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except ConnectionError:
                data = b""
            if not data:
                closed.append(time.monotonic() - started)
                selector.unregister(sock)
    selector.close()
    return closed


def test_stalled_sockets_are_closed_within_the_timeout(patient):
    started = time.monotonic()
    mid_headers = [_connect(patient, b"POST /api/rag/search HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow")
                   for _ in range(STALLED)]  # fmt: skip
    mid_body = [_connect(patient, _head(patient, 100_000) + b'{"doc_id": "slow", "chu')
                for _ in range(STALLED)]  # fmt: skip
    answered = httpx.post(f"{patient.base_url}/api/rag/search", json=QUERY, timeout=10)
    assert answered.status_code == 200  # served while 300 connections stall
    closed = _closed_after(mid_headers + mid_body, started, TIMEOUT_S + 8)
    print(f"{len(closed)} of {2 * STALLED} stalled sockets closed, the last after "
          f"{max(closed, default=0):.2f} s (timeouts {TIMEOUT_S} s)")  # fmt: skip
    for sock in mid_headers + mid_body:
        sock.close()
    assert len(closed) == 2 * STALLED
    assert min(closed) >= TIMEOUT_S * 0.9 and max(closed) <= TIMEOUT_S + 3


def _metric(service: ServiceProcess, name: str, **labels: str) -> float:
    text = httpx.get(f"{service.base_url}/metrics").text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def test_a_client_gone_mid_body_is_one_quiet_499_line(patient):
    before = _metric(patient, "ragsearch_http_requests_total", status="499")
    head = _head(patient, 100_000).replace(b"\r\n\r\n", b"\r\nX-Request-ID: gone-mid-body\r\n\r\n")
    sock = _connect(patient, head + b'{"doc_id": "gone", "chunks": [')
    sock.close()

    def lines() -> list[dict]:
        entries = [json.loads(line) if line.startswith("{") else {"level": "error", "text": line}
                   for line in patient.log().splitlines()]  # fmt: skip
        mine = [e for e in entries if e.get("request_id") == "gone-mid-body"]
        return mine + [e for e in entries if e["level"] == "error"]

    until(lambda: lines() != [], 10, "the request's log line")
    assert len(lines()) == 1, lines()
    line = lines()[0]
    assert (
        line["status"] == 499 and line["level"] == "info" and line["route"] == "/api/rag/documents"
    )
    assert _metric(patient, "ragsearch_http_requests_total", status="499") == before + 1
    assert _metric(patient, "ragsearch_errors_total", kind="internal") == 0
