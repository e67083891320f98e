"""The headers that say where a request goes and where it comes from, sent raw (repeated,
forged) as a hostile page or client would: a repeated Host or Origin is refused; open
mode trusts its own origin and RAG_ALLOWED_ORIGINS, not any local port; no redirect
repeats the Host header."""

from __future__ import annotations

import http.client
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import httpx
import orjson
import pytest

from conftest import WRITE_KEY, PgServer, ServiceProcess, service_on_own_database

DEV_SERVER = "http://localhost:5173"  # a page allowed by RAG_ALLOWED_ORIGINS


@pytest.fixture(scope="module")
def open_service(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    with service_on_own_database(pg, {"RAG_ALLOWED_ORIGINS": DEV_SERVER + "/"}) as service:
        yield service


@pytest.fixture(scope="module")
def keyed_service(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    with service_on_own_database(pg, {"RAG_API_KEYS": WRITE_KEY}) as service:
        yield service


def send(
    service: ServiceProcess, method: str, path: str, headers: list[tuple[str, str]],
    body: dict | None = None,
) -> http.client.HTTPResponse:  # fmt: skip
    """One request with exactly these headers (repeated ones included)."""
    address = urlsplit(service.base_url)
    conn = http.client.HTTPConnection(address.hostname or "", address.port, timeout=30)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    payload = orjson.dumps(body) if body is not None else b""
    for name, value in [*headers, ("Content-Type", "application/json"),
                        ("Content-Length", str(len(payload)))]:  # fmt: skip
        conn.putheader(name, value)
    conn.endheaders(payload)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def _document(doc_id: str) -> dict:
    return {"doc_id": doc_id, "chunks": [{"chunk": "hello", "embedding": [0.1] * 384}]}


def _own(service: ServiceProcess, name: str = "127.0.0.1") -> str:
    return f"http://{name}:{urlsplit(service.base_url).port}"


def _host(service: ServiceProcess) -> str:
    return urlsplit(service.base_url).netloc


def _given(*headers: tuple[str, str]) -> Callable[[ServiceProcess], list[tuple[str, str]]]:
    """Headers for a service: HOST and OWN stand for its own Host and origin."""

    def build(service: ServiceProcess) -> list[tuple[str, str]]:
        own = {"HOST": _host(service), "OWN": _own(service),
               "OWN_BY_NAME": _own(service, "localhost")}  # fmt: skip
        return [(name, own.get(value, value)) for name, value in headers]

    return build


# (name, headers, expected status)
OPEN_MODE_CASES = [
    ("two Hosts, evil first", _given(("Host", "evil.example"), ("Host", "HOST")), 400),
    ("two Hosts, evil last", _given(("Host", "HOST"), ("Host", "evil.example")), 400),
    (
        "two Origins",
        _given(("Host", "HOST"), ("Origin", "http://evil.example"), ("Origin", "OWN")),
        400,
    ),
    ("another host", _given(("Host", "evil.example")), 403),
    ("another local port", _given(("Host", "HOST"), ("Origin", "http://localhost:3000")), 403),
    ("another scheme", _given(("Host", "HOST"), ("Origin", "https://localhost")), 403),
    ("a sandboxed page", _given(("Host", "HOST"), ("Origin", "null")), 403),
    ("its own page", _given(("Host", "HOST"), ("Origin", "OWN")), 200),
    ("its own page by name", _given(("Host", "HOST"), ("Origin", "OWN_BY_NAME")), 200),
    ("an allowed origin", _given(("Host", "HOST"), ("Origin", DEV_SERVER)), 200),
    ("no origin (curl)", _given(("Host", "HOST")), 200),
]


@pytest.mark.parametrize(("name", "headers", "status"), OPEN_MODE_CASES,
                         ids=[case[0] for case in OPEN_MODE_CASES])  # fmt: skip
def test_open_mode_writes_only_for_its_own_pages(open_service, name, headers, status, run_id):
    doc_id = f"{run_id}-doc"
    r = send(open_service, "POST", "/api/rag/documents", headers(open_service), _document(doc_id))
    assert r.status == status, name
    stored = httpx.get(f"{open_service.base_url}/api/rag/documents/{doc_id}").status_code
    assert stored == (200 if status == 200 else 404)


@pytest.mark.parametrize("header", ["Host", "Origin"])
def test_keyed_mode_refuses_a_repeated_header_too(keyed_service, header):
    own = _host(keyed_service) if header == "Host" else _own(keyed_service)
    headers = [("Host", _host(keyed_service))] if header == "Origin" else []
    headers += [(header, "evil.example"), (header, own), ("Authorization", f"Bearer {WRITE_KEY}")]
    r = send(keyed_service, "POST", "/api/rag/documents", headers, _document("repeated"))
    assert r.status == 400
    authorized = {"Authorization": f"Bearer {WRITE_KEY}"}
    assert httpx.get(f"{keyed_service.base_url}/api/rag/documents/repeated",
                     headers=authorized).status_code == 404  # fmt: skip


@pytest.mark.parametrize("which", ["open", "keyed"])
def test_no_redirect_repeats_the_host(open_service, keyed_service, which):
    service = open_service if which == "open" else keyed_service
    host = "evil.example" if which == "keyed" else _host(service)
    r = send(service, "GET", "/api/rag/collections/",
             [("Host", host), ("Authorization", f"Bearer {WRITE_KEY}")])  # fmt: skip
    assert r.status == 404
    assert r.getheader("location") is None
