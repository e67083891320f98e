"""Bearer-token access.

* ``RAG_API_KEYS``: keys that may read and write everything.
* ``RAG_READ_KEYS``: keys that may search and read everything.
* ``RAG_COLLECTION_KEYS``: keys limited to named collections, as JSON
  ``{"<token>": {"collections": ["acme", "acme-docs"], "write": true}}``; such a key reads
  (and with ``write``, writes documents and signals in) its collections only. Everything
  shared by all collections (spaces, profiles, goals, creating or deleting collections)
  needs a key from RAG_API_KEYS.

``/metrics`` shows every collection's counts: it needs a key from ``RAG_API_KEYS`` or
``RAG_METRICS_KEYS`` (keys that may read the metrics and nothing else), unless
``RAG_METRICS_PUBLIC`` is set.

A key used outside its scope gets 403; no key, or an unknown one, 401. With no key
configured at all the service is open and binds to 127.0.0.1 only (see app.cli).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from app.errors import Forbidden, Unauthorized
from app.settings import Settings


class Scope(Enum):
    READ = "read"
    WRITE = "write"


@dataclass(frozen=True)
class Access:
    """What the caller's key allows: writing, and which collections (None: all); ``key``
    names the key (a digest, never the token; None in open mode)."""

    write: bool
    collections: frozenset[str] | None = None
    key: str | None = None

    def collection(self, name: str) -> str:
        """``name``, if this key may use that collection (else 403)."""
        if self.collections is not None and name not in self.collections:
            raise Forbidden(
                f"this key may not use collection {name!r} (it is limited to "
                f"{', '.join(sorted(self.collections))})",
                collection=name,
            )
        return name

    def shared(self) -> None:
        """Changing what all collections share needs an unrestricted write key."""
        if self.collections is not None:
            raise Forbidden(
                "this key is limited to some collections; spaces, profiles, goals and "
                "collections themselves are changed with a key from RAG_API_KEYS"
            )


OPEN = Access(write=True)


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _matches(token: str, keys: Iterable[str]) -> bool:
    # Compare against every key in constant time, so timing tells nothing about keys.
    found = False
    encoded = token.encode("utf-8", "surrogatepass")
    for key in keys:
        found |= hmac.compare_digest(encoded, key.encode("utf-8", "surrogatepass"))
    return found


def access_for(settings: Settings, authorization: str | None) -> Access:
    """What the bearer token allows (401 when it allows nothing)."""
    if settings.open_access:
        return OPEN
    token = _token(authorization)
    if token is None:
        raise Unauthorized()
    name = _key_name(token)
    if _matches(token, settings.api_keys):
        return Access(write=True, key=name)
    if _matches(token, settings.read_keys):
        return Access(write=False, key=name)
    for key, grant in settings.collection_keys.items():
        if _matches(token, [key]):
            return Access(write=grant.write, collections=frozenset(grant.collections), key=name)
    raise Unauthorized()


def _key_name(token: str) -> str:
    return hashlib.blake2b(token.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def check_access(settings: Settings, authorization: str | None, needed: Scope) -> Access:
    """The caller's access, if it allows ``needed`` (else 401 or 403)."""
    access = access_for(settings, authorization)
    if needed is Scope.WRITE and not access.write:
        raise Forbidden("this key may only read and search; writing needs a write key")
    return access


def check_metrics_access(settings: Settings, authorization: str | None) -> None:
    """Scraping /metrics: a key from RAG_API_KEYS or RAG_METRICS_KEYS (else 401 or 403)."""
    if settings.metrics_public or settings.open_access:
        return
    token = _token(authorization)
    if token is not None and _matches(token, [*settings.api_keys, *settings.metrics_keys]):
        return
    access_for(settings, authorization)  # 401 unless the key is one of the service's
    raise Forbidden(
        "the metrics count every collection's requests: they need a key from RAG_API_KEYS "
        "or RAG_METRICS_KEYS"
    )
