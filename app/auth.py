"""Bearer-token access: write keys (RAG_API_KEYS) may do anything, read keys
(RAG_READ_KEYS) may only search and read. With no key configured the service is open
and binds to 127.0.0.1 only (see app.cli)."""

from __future__ import annotations

import hmac
from enum import Enum

from app.errors import Forbidden, Unauthorized
from app.settings import Settings


class Scope(Enum):
    READ = "read"
    WRITE = "write"


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _matches(token: str, keys: list[str]) -> bool:
    # Compare against every key in constant time, so timing tells nothing about keys.
    found = False
    for key in keys:
        found |= hmac.compare_digest(token.encode(), key.encode())
    return found


def check_access(settings: Settings, authorization: str | None, needed: Scope) -> None:
    """Raise Unauthorized (401) or Forbidden (403) unless the token allows ``needed``."""
    if settings.open_access:
        return
    token = _token(authorization)
    if token is None:
        raise Unauthorized()
    if _matches(token, settings.api_keys):
        return
    if _matches(token, settings.read_keys):
        if needed is Scope.READ:
            return
        raise Forbidden("this key may only read and search; writing needs a key from RAG_API_KEYS")
    raise Unauthorized()
