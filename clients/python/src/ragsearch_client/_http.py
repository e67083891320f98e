"""What the sync and async clients share: the request a method makes (``Call``), retry
timing, and turning a response into a model or an exception."""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from ragsearch_client import __version__
from ragsearch_client.errors import APIError, error_class

T = TypeVar("T")
RETRIED_CONNECT_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout)


@dataclass(frozen=True)
class Retries:
    """How 429 and 503 answers (and failed connections) are retried: up to ``attempts``
    more times, each after the answer's Retry-After when it has one, else after
    ``backoff`` x 2^n seconds (plus up to a quarter of jitter); no wait is longer than
    ``max_wait``. A 503 means the service did not run the request, so writes are retried
    too."""

    attempts: int = 3
    backoff: float = 0.5
    max_wait: float = 30.0
    statuses: frozenset[int] = field(default_factory=lambda: frozenset({429, 503}))

    def wait(self, attempt: int, response: httpx.Response | None) -> float:
        told = retry_after(response) if response is not None else None
        if told is None:
            told = self.backoff * 2**attempt * (1 + random.random() / 4)
        return max(0.0, min(told, self.max_wait))


NO_RETRIES = Retries(attempts=0)


def retry_after(response: httpx.Response) -> float | None:
    """Retry-After in seconds: a number of seconds, or an HTTP date."""
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return when.timestamp() - time.time()


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request of the API and what its answer is read into (``None``: the text)."""

    method: str
    path: str
    model: type[T] | None
    params: dict[str, Any] | None = None
    json: dict[str, Any] | None = None
    answers_with_body: frozenset[int] = frozenset()  # error statuses that still carry T
    files: list[tuple[str, tuple[str, bytes]]] | None = None  # a multipart body
    data: dict[str, str] | None = None  # its other fields
    accepted: type[BaseModel] | None = None  # what a 202 (queued as a job) is read into


def path_segment(value: str) -> str:
    """A value as one path segment: every reserved character percent-encoded ('/' too,
    which the service decodes back), and a segment of dots kept from being resolved."""
    encoded = quote(value, safe="")
    return encoded.replace(".", "%2E") if set(value) == {"."} else encoded


def headers(api_key: str | None, consistency: str | None) -> dict[str, str]:
    values = {"User-Agent": f"ragsearch-client/{__version__}", "Accept": "application/json"}
    if api_key:
        values["Authorization"] = f"Bearer {api_key}"
    if consistency:
        values["X-Consistency"] = consistency
    return values


def should_retry(call: Call[Any], response: httpx.Response, retries: Retries, attempt: int) -> bool:
    return (
        attempt < retries.attempts
        and response.status_code in retries.statuses
        and response.status_code not in call.answers_with_body
    )


def decode(call: Call[T], response: httpx.Response) -> T:
    """The answer as ``call.model``; an APIError subclass for an error status."""
    status = response.status_code
    if status >= 400 and status not in call.answers_with_body:
        raise error_class(status)(status, body_of(response), call.method, str(response.url))
    if status == 202 and call.accepted is not None:
        return cast(T, call.accepted.model_validate_json(response.content))
    if call.model is None:
        return response.text  # type: ignore[return-value]
    model: Any = call.model
    if isinstance(model, type) and issubclass(model, BaseModel):
        return cast(T, model.model_validate_json(response.content))
    raise TypeError(f"cannot read an answer into {model!r}")


def body_of(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


__all__ = ["NO_RETRIES", "RETRIED_CONNECT_ERRORS", "APIError", "Call", "Retries"]
