"""The service's Prometheus metrics, in a registry of its own per application (so that
several applications in one process, as in tests, keep separate counts)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
CANDIDATE_BUCKETS = (10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000, 1_000_000)


class PoolCollector(Collector):
    """The connection pool's size, connections in use and requests waiting, read at
    scrape time from whatever pool is current (the supervisor replaces it after an
    outage)."""

    def __init__(self, pool_stats: Callable[[], dict[str, int]]) -> None:
        self.pool_stats = pool_stats

    def collect(self) -> Iterator[GaugeMetricFamily]:
        stats = self.pool_stats()
        size = stats.get("pool_size", 0)
        in_use = size - stats.get("pool_available", 0)
        for name, value, text in (
            ("ragsearch_db_pool_size", size, "connections open in the pool"),
            ("ragsearch_db_pool_in_use", in_use, "connections lent to requests"),
            ("ragsearch_db_pool_waiting", stats.get("requests_waiting", 0),
             "requests waiting for a connection"),
        ):  # fmt: skip
            yield GaugeMetricFamily(name, text, value=value)


class ReplicaCollector(Collector):
    """Each read replica's lag and whether it is in rotation, and reads per database,
    read at scrape time from the replica set (app/db/replicas.py)."""

    def __init__(self, replicas: Any) -> None:
        self.replicas = replicas

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        lag = GaugeMetricFamily(
            "ragsearch_replica_lag_seconds",
            "how far each replica's replay is behind (NaN: unknown)",
            labels=["replica"],
        )
        rotation = GaugeMetricFamily(
            "ragsearch_replica_in_rotation", "1 when the replica serves reads", labels=["replica"]
        )
        for replica in self.replicas.replicas:
            seconds = float("nan") if replica.lag_ms is None else replica.lag_ms / 1000
            lag.add_metric([replica.name], seconds)
            rotation.add_metric([replica.name], 1.0 if replica.healthy else 0.0)
        reads = CounterMetricFamily(
            "ragsearch_reads",
            "reads (searches, explains, GETs) by the database that served them",
            labels=["database"],
        )
        for name, count in self.replicas.reads.items():
            reads.add_metric([name], count)
        yield from (lag, rotation, reads)


class Metrics:
    """Every metric the service exports; ``observe_*`` record one event each."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("ragsearch_http_requests", "HTTP requests answered",
                                ["route", "method", "status"], registry=r)  # fmt: skip
        self.request_seconds = Histogram(
            "ragsearch_http_request_duration_seconds", "HTTP request latency",
            ["route", "method", "status"], buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.search_seconds = Histogram(
            "ragsearch_search_duration_seconds", "ranking time inside PostgreSQL",
            ["strategy", "fusion"], buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.candidates = Histogram(
            "ragsearch_search_candidates_scanned", "chunks scored per search",
            ["strategy"], buckets=CANDIDATE_BUCKETS, registry=r,
        )  # fmt: skip
        self.fallbacks = Counter("ragsearch_search_fallbacks",
                                 "threshold searches whose bound did not close (scanned)",
                                 registry=r)  # fmt: skip
        self.errors = Counter("ragsearch_errors", "responses 5xx, by kind",
                              ["kind"], registry=r)  # fmt: skip
        self.ingested = Counter("ragsearch_ingest_chunks", "chunks stored through the API",
                                registry=r)  # fmt: skip

    def watch_pool(self, pool_stats: Callable[[], dict[str, int]]) -> None:
        self.registry.register(PoolCollector(pool_stats))

    def watch_replicas(self, replicas: Any) -> None:
        self.registry.register(ReplicaCollector(replicas))

    def observe_request(self, route: str, method: str, status: int, seconds: float) -> None:
        labels = (route, method, str(status))
        self.requests.labels(*labels).inc()
        self.request_seconds.labels(*labels).observe(seconds)

    def observe_search(self, meta: dict[str, Any]) -> None:
        """One weighted search, from its ``query_metadata``."""
        strategy = str(meta.get("strategy", "unknown"))
        fusion = str(meta.get("fusion", "weighted"))
        if (ms := meta.get("sql_time_ms")) is not None:
            self.search_seconds.labels(strategy, fusion).observe(float(ms) / 1000)
        if (scanned := meta.get("candidates_scanned")) is not None:
            self.candidates.labels(strategy).observe(float(scanned))
        if meta.get("fell_back_to_scan"):
            self.fallbacks.inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
