"""Open mode (no keys configured) serves 127.0.0.1 only; this middleware also refuses
requests that name another host (a DNS-rebinding page) or come from a page of another
origin (a cross-site form or fetch), so that no web page a user opens can use the
service on their behalf."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.responses import ORJSONResponse

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _host_name(value: str) -> str:
    """The name of a Host header or an origin, without port and brackets."""
    if "://" in value:
        return (urlsplit(value).hostname or "").lower()
    if value.startswith("["):
        return value[1 : value.find("]")].lower()
    return value.rsplit(":", 1)[0].lower() if value.count(":") == 1 else value.lower()


class LoopbackOnly:
    """ASGI middleware: 403 unless Host (and Origin, when sent) are loopback names."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            refused = self._refused(headers)
            if refused:
                await ORJSONResponse({"error": refused}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _refused(headers: dict[str, str]) -> str | None:
        host = headers.get("host", "")
        if _host_name(host) not in LOOPBACK_HOSTS:
            return (
                f"Host {host!r} is not this machine: with no API keys configured the service "
                "answers requests addressed to 127.0.0.1 or localhost only"
            )
        origin = headers.get("origin")
        if origin is not None and origin != "null" and _host_name(origin) not in LOOPBACK_HOSTS:
            return (
                f"Origin {origin!r} is another site: with no API keys configured the service "
                "answers pages served from this machine only"
            )
        if origin == "null":
            return "Origin 'null' (a sandboxed page or file) is refused in open mode"
        return None
