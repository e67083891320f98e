"""Retries: a real HTTP server in front of the service answers 503 or 429 first (with or
without Retry-After), then passes requests through; the client waits and tries again."""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from ragsearch_client import (
    AsyncClient,
    Client,
    RateLimitedError,
    Retries,
    TransportError,
    UnavailableError,
)
from support import WRITE_KEY


class FlakyProxy:
    """Answers the first ``failures`` requests with ``status`` (and Retry-After, if
    given), then forwards each request to ``upstream``."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.failures = 0
        self.status = 503
        self.retry_after: str | None = None
        self.payload = b'{"error": "the database is restarting"}'
        self.seen: list[float] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def answer(self) -> None:
                proxy.seen.append(time.monotonic())
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                if len(proxy.seen) <= proxy.failures:
                    payload = proxy.payload
                    self.send_response(proxy.status)
                    if proxy.retry_after is not None:
                        self.send_header("Retry-After", proxy.retry_after)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                forwarded = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                reply = httpx.request(self.command, proxy.upstream + self.path,
                                      headers=forwarded, content=body)  # fmt: skip
                self.send_response(reply.status_code)
                self.send_header("Content-Type", reply.headers.get("content-type", ""))
                self.send_header("Content-Length", str(len(reply.content)))
                self.end_headers()
                self.wfile.write(reply.content)

            do_GET = do_POST = do_DELETE = do_PUT = answer  # noqa: N815

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy(base_url: str) -> Iterator[FlakyProxy]:
    flaky = FlakyProxy(base_url)
    yield flaky
    flaky.stop()


def test_a_503_with_retry_after_is_retried_after_that_wait(proxy):
    proxy.failures, proxy.retry_after = 1, "1"
    with Client(proxy.url, api_key=WRITE_KEY) as rag:
        assert rag.list_collections().ok
    assert len(proxy.seen) == 2
    assert proxy.seen[1] - proxy.seen[0] >= 0.95


def test_a_429_without_retry_after_backs_off(proxy):
    proxy.failures, proxy.status = 2, 429
    with Client(proxy.url, api_key=WRITE_KEY, retries=Retries(backoff=0.1)) as rag:
        assert rag.put_document(doc_id="retried", chunks=[{"chunk": "x"}]).chunks == 1
    gaps = [b - a for a, b in zip(proxy.seen, proxy.seen[1:], strict=False)]
    assert len(proxy.seen) == 3 and gaps[0] >= 0.1 and gaps[1] >= 0.2


def test_retries_run_out_and_the_last_answer_is_raised(proxy):
    proxy.failures, proxy.retry_after = 10, "0"
    rag = Client(proxy.url, api_key=WRITE_KEY, retries=Retries(attempts=2))
    with rag, pytest.raises(UnavailableError) as caught:
        rag.stats()
    assert len(proxy.seen) == 3
    assert caught.value.status_code == 503
    assert caught.value.body == {"error": "the database is restarting"}


def test_no_retries(proxy):
    proxy.failures, proxy.status = 1, 429
    rag = Client(proxy.url, api_key=WRITE_KEY, retries=Retries(attempts=0))
    with rag, pytest.raises(RateLimitedError):
        rag.stats()
    assert len(proxy.seen) == 1


def test_readiness_503_is_an_answer_not_a_retry(proxy):
    proxy.failures, proxy.payload = 1, b'{"ok": false, "error": "database unavailable"}'
    with Client(proxy.url) as rag:
        readiness = rag.ready()
    assert (readiness.ok, readiness.error) == (False, "database unavailable")
    assert len(proxy.seen) == 1


async def test_the_async_client_retries_too(proxy):
    proxy.failures, proxy.retry_after = 2, "0.2"
    async with AsyncClient(proxy.url, api_key=WRITE_KEY) as rag:
        assert (await rag.list_spaces()).spaces
    assert len(proxy.seen) == 3 and proxy.seen[2] - proxy.seen[0] >= 0.4


def test_an_unreachable_service_is_a_transport_error():
    closed = FlakyProxy("http://127.0.0.1:9")
    url = closed.url
    closed.stop()
    rag = Client(url, retries=Retries(attempts=2, backoff=0.01))
    with rag, pytest.raises(TransportError, match="GET /healthz"):
        rag.health()


def answer(**headers: str) -> httpx.Response:
    return httpx.Response(503, headers=headers)


def test_the_wait_reads_retry_after_in_seconds_or_as_a_date():
    retries = Retries(backoff=0.5, max_wait=30)
    assert retries.wait(0, answer(**{"Retry-After": "2"})) == 2.0
    in_ten = email.utils.formatdate(time.time() + 10, usegmt=True)
    assert 8.5 <= retries.wait(0, answer(**{"Retry-After": in_ten})) <= 10.0
    assert retries.wait(0, answer(**{"Retry-After": "3600"})) == 30.0  # never past max_wait
    past = email.utils.formatdate(time.time() - 60, usegmt=True)
    assert retries.wait(0, answer(**{"Retry-After": past})) == 0.0


def test_without_retry_after_the_wait_doubles():
    retries = Retries(backoff=0.5, max_wait=3)
    waits = [retries.wait(attempt, answer()) for attempt in range(4)]
    assert 0.5 <= waits[0] <= 0.625 and 1.0 <= waits[1] <= 1.25 and 2.0 <= waits[2] <= 2.5
    assert waits[3] == 3.0
    assert 0.5 <= retries.wait(0, answer(**{"Retry-After": "soon"})) <= 0.625  # unreadable
