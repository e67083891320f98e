"""HTTP load for the benchmarks: wrk against a running service, the CPU each request
costs the service and the database, and the service's memory under a soak.

``run_http`` is search_bench.py's HTTP mode: POST /api/rag/search (a weighted mix) and the
plain-ANN endpoint POST /api/rag/search/space/default at concurrency 1, 5, 20 and 50.
Both share two cores with the database, so requests/s follow the CPU a request costs;
each run reports it split between the service's processes and its PostgreSQL server's
(the postmaster named by the data directory's postmaster.pid, and its backends: CPU time
over the run, per request answered; "-" when the database runs elsewhere).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import psutil

from bench.common import postmaster, print_table, service

K = 10
WEIGHTED = "/api/rag/search"
PLAIN = "/api/rag/search/space/default"

WRK_SCRIPT = """
local bodies = {}
local i = 0
for line in io.lines("%s") do bodies[#bodies + 1] = line end
request = function()
  i = i %% #bodies + 1
  return wrk.format("POST", "%s", {["Content-Type"] = "application/json"}, bodies[i])
end
"""


def wrk(base: str, path: str, bodies: list[bytes], connections: int, seconds: int) -> dict:
    """One wrk run posting ``bodies`` in turn: requests/s, p50/p99 ms, non-2xx count."""
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp, "bodies.jsonl")
        body_file.write_bytes(b"\n".join(bodies) + b"\n")
        script = Path(tmp, "post.lua")
        script.write_text(WRK_SCRIPT % (body_file, path))
        done = subprocess.run(
            ["wrk", "-t", "1", "-c", str(connections), "-d", f"{seconds}s", "--latency",
             "-s", str(script), base],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    out = done.stdout
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", out, re.MULTILINE))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": _ms(latency["50"]), "p99": _ms(latency["99"]),
        "errors": int(errors.group(1)) if errors else 0,
    }  # fmt: skip


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def _cpu_by_pid(processes: list[psutil.Process]) -> dict[int, float]:
    found = {}
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue  # ended: whatever it used since the last reading is not counted
        found[process.pid] = times.user + times.system
    return found


def _spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two readings: a process read both times counts its difference,
    one that began between them all it used."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


class CpuMeter:
    """CPU ms per request of the service (its process tree) and of its database server
    (the postmaster and its backends, listed again at each reading), over one run."""

    def __init__(self, service_pid: int, database_url: str) -> None:
        root = psutil.Process(service_pid)
        self.service = [root, *root.children(recursive=True)]
        self.postmaster = postmaster(database_url)

    def _database(self) -> list[psutil.Process]:
        if self.postmaster is None:
            return []
        return [self.postmaster, *self.postmaster.children()]

    def wrk(self, base: str, path: str, bodies: list[bytes], connections: int,
            seconds: int) -> dict:  # fmt: skip
        """``wrk``'s result, with service_cpu and db_cpu: CPU ms per request answered
        (db_cpu None when the database runs elsewhere)."""
        service_before = _cpu_by_pid(self.service)
        database_before = _cpu_by_pid(self._database())
        result = wrk(base, path, bodies, connections, seconds)
        answered = result["rps"] * seconds
        service = _spent(service_before, _cpu_by_pid(self.service))
        database = _spent(database_before, _cpu_by_pid(self._database()))
        result["service_cpu"] = 1000 * service / answered
        result["db_cpu"] = 1000 * database / answered if self.postmaster else None
        return result


def _rss_mb(pid: int) -> float:
    process = psutil.Process(pid)
    return sum(p.memory_info().rss for p in [process, *process.children(recursive=True)]) / 2**20


def server_pid(base: str) -> int:
    """The pid of the ``ragsearch serve`` answering at ``base`` (the process that listens,
    or with several workers the one that started them)."""
    port = int(base.rsplit(":", 1)[1])
    for conn in psutil.net_connections("tcp"):
        if conn.laddr and conn.laddr.port == port and conn.status == psutil.CONN_LISTEN:
            process = psutil.Process(conn.pid)
            while (parent := process.parent()) is not None and _serves(parent):
                process = parent
            return process.pid
    raise RuntimeError("service process not found")


def _serves(process: psutil.Process) -> bool:
    try:
        command = process.cmdline()
    except psutil.Error:
        return False
    return "serve" in command and any("app.cli" in part or "ragsearch" in part
                                      for part in command)  # fmt: skip


def _cpu(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def request_bodies(queries: np.ndarray, mix: tuple[float, float, float]) -> dict[str, list[bytes]]:
    """One body per query for each endpoint: the weighted search's (``mix``), under
    WEIGHTED, and the plain-ANN endpoint's, under PLAIN."""
    return {
        WEIGHTED: [json.dumps({"embedding": q.tolist(), "k": K, "w_cos": mix[0],
                               "w_rec": mix[1], "w_sig": mix[2]}).encode() for q in queries],
        PLAIN: [json.dumps({"query_embedding": q.tolist(), "top_k": K}).encode()
                for q in queries],
    }  # fmt: skip


def run_http(url: str, queries: np.ndarray, seconds: int, workers: int, soak: int,
             ef_search: int, mix: tuple[float, float, float]) -> None:  # fmt: skip
    if shutil.which("wrk") is None:
        sys.exit("HTTP mode needs wrk: apt-get install wrk")
    bodies = request_bodies(queries, mix)
    weighted, plain = bodies[WEIGHTED], bodies[PLAIN]
    with service(url, workers=workers, RAG_HNSW_EF_SEARCH=str(ef_search)) as base:
        wrk(base, WEIGHTED, weighted, 5, 2)  # warm-up
        wrk(base, PLAIN, plain, 5, 2)
        meter = CpuMeter(server_pid(base), url)
        rows = []
        for connections in (1, 5, 20, 50):
            ours = meter.wrk(base, WEIGHTED, weighted, connections, seconds)
            ann = meter.wrk(base, PLAIN, plain, connections, seconds)
            rows.append([connections, ours["p50"], ours["p99"], ours["rps"], ann["p50"],
                         ann["p99"], ann["rps"], f"{ours['rps'] / ann['rps']:.2f}",
                         f"{_cpu(ours['service_cpu'])} + {_cpu(ours['db_cpu'])}",
                         f"{_cpu(ann['service_cpu'])} + {_cpu(ann['db_cpu'])}",
                         ours["errors"] + ann["errors"]])  # fmt: skip
        print(f"\n### HTTP, {workers} worker(s), weights {mix}, wrk {seconds} s per run")
        print_table(["conc.", "ours p50", "ours p99", "ours req/s", "ann p50", "ann p99",
                     "ann req/s", "req/s ratio", "ours CPU ms/req (service + db)",
                     "ann CPU ms/req (service + db)", "errors"], rows)  # fmt: skip
        if soak:
            soak_memory(base, weighted, soak)


def soak_memory(base: str, bodies: list[bytes], seconds: int) -> None:
    pid = server_pid(base)
    samples = [_rss_mb(pid)]
    step = 30
    for _ in range(max(1, seconds // step)):
        wrk(base, WEIGHTED, bodies, 20, step)
        samples.append(_rss_mb(pid))
    change = (samples[-1] - samples[1]) / samples[1] * 100 if len(samples) > 2 else 0.0
    print(f"\n### memory at concurrency 20 for {seconds} s (service process tree RSS)")
    print_table(
        ["start MB", "after 30 s MB", "end MB", "max MB", "end vs 30 s"],
        [[samples[0], samples[1], samples[-1], max(samples), f"{change:+.1f}%"]],
    )
