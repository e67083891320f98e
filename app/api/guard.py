"""Checks on the headers that say where a request goes and where it comes from, before
anything else reads the request.

* Always: one ``Host`` and at most one ``Origin`` header (two of either is a request
  built to make two readers see two different values: 400), and a path and query string
  whose percent-encoded bytes are UTF-8 (others are read as U+FFFD, so that ``%FF%FE``
  would name the document ``"\ufffd\ufffd"``: 400).
* Open mode (no keys configured; the service then listens on 127.0.0.1 only): the
  ``Host`` must be a loopback name, so that a DNS-rebinding page cannot reach the
  service, and an ``Origin``, when sent, must be the service's own (its loopback names
  at the port it listens on) or one of ``RAG_ALLOWED_ORIGINS``, so that no other page a
  user opens (a local dev server on another port included) can use the service on
  their behalf.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.responses import ORJSONResponse
from app.settings import DEFAULT_PORTS, normalized_origin

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
SINGLE_HEADERS = (b"host", b"origin")


def _host_name(value: str) -> str:
    """The name of a Host header, without port and brackets."""
    if value.startswith("["):
        return value[1 : value.find("]")].lower()
    return value.rsplit(":", 1)[0].lower() if value.count(":") == 1 else value.lower()


def _utf8_target(scope: Scope) -> bool:
    """The path and the query string decode (percent-encoding undone) as UTF-8."""
    raw_path = scope.get("raw_path") or scope["path"].encode()
    query = scope.get("query_string", b"").replace(b"+", b" ")
    try:
        unquote_to_bytes(raw_path).decode("utf-8")
        unquote_to_bytes(query).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def own_origins(port: int) -> set[str]:
    """The origins of pages the service serves itself, at ``port``."""
    names = ("127.0.0.1", "localhost", "[::1]")
    suffix = "" if port == DEFAULT_PORTS["http"] else f":{port}"
    return {f"http://{name}{suffix}" for name in names}


class HeaderGuard:
    """ASGI middleware: 400 on a repeated Host or Origin; in open mode 403 unless Host is
    a loopback name and Origin, when sent, an origin the service trusts."""

    def __init__(self, app: ASGIApp, open_mode: bool, allowed_origins: list[str]) -> None:
        self.app = app
        self.open_mode = open_mode
        self.allowed = set(allowed_origins)  # normalized by the settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self._refused(scope)
            if refused:
                status, message = refused
                await ORJSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refused(self, scope: Scope) -> tuple[int, str] | None:
        if not _utf8_target(scope):
            return 400, "the URL holds percent-encoded bytes that are not UTF-8"
        found: dict[bytes, list[str]] = {name: [] for name in SINGLE_HEADERS}
        for name, value in scope["headers"]:
            if name in found:
                found[name].append(value.decode("latin-1"))
        for name, values in found.items():
            if len(values) > 1:
                header = name.decode().capitalize()
                return 400, f"the request has {len(values)} {header} headers: send one"
        if not self.open_mode:
            return None
        host = found[b"host"][0] if found[b"host"] else ""
        origin = found[b"origin"][0] if found[b"origin"] else None
        return self._open_mode_refusal(host, origin, scope)

    def _open_mode_refusal(
        self, host: str, origin: str | None, scope: Scope
    ) -> tuple[int, str] | None:
        if _host_name(host) not in LOOPBACK_HOSTS:
            return 403, (
                f"Host {host!r} is not this machine: with no API keys configured the service "
                "answers requests addressed to 127.0.0.1 or localhost only"
            )
        if origin is None:
            return None
        if origin == "null":
            return 403, "Origin 'null' (a sandboxed page or file) is refused in open mode"
        server = scope.get("server") or ("", None)
        trusted = own_origins(server[1]) if server[1] else set()
        if normalized_origin(origin) in trusted | self.allowed:
            return None
        return 403, (
            f"Origin {origin!r} is another site: with no API keys configured the service "
            "answers its own pages and those of RAG_ALLOWED_ORIGINS only"
        )
