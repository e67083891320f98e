"""What an operator sees: Prometheus metrics counted from known requests, the request id
round trip, one JSON log line per request (without secrets), the slow-search log."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import READ_KEY, WRITE_KEY, PgServer, ServiceProcess, service_on_own_database
from helpers import until

DIMS = 384
METRICS_KEY = "test-metrics-key"
TENANT_KEY = "test-tenant-key"
VECTOR = [1.0] + [0.0] * (DIMS - 1)


@pytest.fixture(scope="module")
def observed(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    tenant = {TENANT_KEY: {"collections": ["default"]}}
    env = {"RAG_API_KEYS": WRITE_KEY, "RAG_READ_KEYS": READ_KEY, "RAG_LOG_LEVEL": "info",
           "RAG_LOG_FORMAT": "json", "RAG_SLOW_SEARCH_MS": "0.001",
           "RAG_METRICS_KEYS": METRICS_KEY, "RAG_COLLECTION_KEYS": json.dumps(tenant)}  # fmt: skip
    with service_on_own_database(pg, env) as service:
        yield service


def _client(service: ServiceProcess, key: str) -> httpx.Client:
    return httpx.Client(base_url=service.base_url, timeout=60,
                        headers={"Authorization": f"Bearer {key}"})  # fmt: skip


def _samples(text: str) -> dict[tuple[str, frozenset], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return out


def _value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def _log_lines(service: ServiceProcess) -> list[dict]:
    lines = []
    for line in service.log().splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def test_metrics_count_known_requests(observed):
    with _client(observed, WRITE_KEY) as http:
        doc = {"doc_id": "m-1", "chunks": [
            {"chunk_id": f"m-1-{i}", "chunk": f"metrics chunk {i}", "embedding": VECTOR}
            for i in range(2)]}  # fmt: skip
        assert http.post("/api/rag/documents", json=doc).status_code == 200
        for _ in range(3):
            assert (
                http.post("/api/rag/search", json={"embedding": VECTOR, "k": 2}).status_code == 200
            )
        assert http.get("/api/rag/documents/absent").status_code == 404
    with _client(observed, METRICS_KEY) as scraper:
        scrape = scraper.get("/metrics")
    assert scrape.status_code == 200
    assert scrape.headers["content-type"].startswith("text/plain")
    samples = _samples(scrape.text)
    search = {"route": "/api/rag/search", "method": "POST", "status": "200"}
    assert _value(samples, "ragsearch_http_requests_total", **search) == 3
    assert _value(samples, "ragsearch_http_request_duration_seconds_count", **search) == 3
    missing = {"route": "/api/rag/documents/{doc_id:path}", "method": "GET", "status": "404"}
    assert _value(samples, "ragsearch_http_requests_total", **missing) == 1
    assert _value(samples, "ragsearch_ingest_chunks_total") == 2
    by_strategy = sum(v for (name, _), v in samples.items()
                      if name == "ragsearch_search_duration_seconds_count")  # fmt: skip
    assert by_strategy == 3
    assert _value(samples, "ragsearch_search_duration_seconds_count", strategy="scan",
                  fusion="weighted") == 3  # two chunks: scanned  # fmt: skip
    assert _value(samples, "ragsearch_db_pool_size") >= 1
    assert ("ragsearch_db_pool_waiting", frozenset()) in samples


def test_request_id_is_echoed_or_generated(observed):
    with _client(observed, READ_KEY) as http:
        given = http.get("/api/rag/stats", headers={"X-Request-ID": "trace-42.a"})
        made = http.get("/api/rag/stats")
        hostile = http.get("/api/rag/stats", headers={"X-Request-ID": 'a b" <x>' * 30})
    assert given.headers["x-request-id"] == "trace-42.a"
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["x-request-id"])
    assert re.fullmatch(r"[0-9a-f]{32}", hostile.headers["x-request-id"])


def test_one_json_line_per_request_without_secrets_and_slow_searches_logged(observed):
    with _client(observed, WRITE_KEY) as http:
        r = http.post("/api/rag/search", json={"embedding": VECTOR, "k": 1},
                      headers={"X-Request-ID": "log-check-1"})  # fmt: skip
        assert r.status_code == 200

    def mine() -> list[dict]:  # the lines are written once the answer has left
        return [line for line in _log_lines(observed) if line.get("request_id") == "log-check-1"]

    until(lambda: len(mine()) >= 2, 10, "the request's log lines")
    access = [line for line in mine() if line["logger"] == "ragsearch.request"]
    assert len(access) == 1
    assert access[0]["route"] == "/api/rag/search" and access[0]["status"] == 200
    assert access[0]["strategy"] in ("scan", "threshold") and access[0]["duration_ms"] > 0
    slow = [line for line in mine() if line["logger"] == "ragsearch.slow_search"]
    assert len(slow) == 1 and slow[0]["query_metadata"]["strategy"] == access[0]["strategy"]
    text = observed.log()
    assert WRITE_KEY not in text and READ_KEY not in text
    assert "0.0, 0.0, 0.0" not in text  # no vector


@pytest.mark.parametrize(
    ("key", "status"),
    [(None, 401), ("wrong", 401), (READ_KEY, 403), (TENANT_KEY, 403), (WRITE_KEY, 200),
     (METRICS_KEY, 200)],
)  # fmt: skip
def test_metrics_need_an_admin_or_a_metrics_key(observed, key, status):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    r = httpx.get(f"{observed.base_url}/metrics", headers=headers)
    assert r.status_code == status, r.text
    if status == 403:
        assert "RAG_METRICS_KEYS" in r.json()["error"]


def test_a_metrics_key_reads_nothing_else(observed):
    with _client(observed, METRICS_KEY) as http:
        assert http.post("/api/rag/search", json={"embedding": VECTOR}).status_code == 401
        assert http.get("/api/rag/stats").status_code == 401


def test_metrics_can_be_public(pg: PgServer, template_db: str):
    env = {"RAG_API_KEYS": WRITE_KEY, "RAG_METRICS_PUBLIC": "true"}
    with service_on_own_database(pg, env) as service:
        assert httpx.get(f"{service.base_url}/metrics").status_code == 200
