"""Embedders behind an OpenAI-compatible ``POST {url}/embeddings`` endpoint.

Texts go in batches of ``batch_size``, at most ``concurrency`` calls at once, questions
first and one call kept for them (app/embed/turns.py). A call
answered 429 or 5xx, or that timed out or could not connect, is tried again after the
wait its ``Retry-After`` asks for (seconds or an HTTP date), else after a doubling
back-off, as often as the caller's patience allows; any other answer fails at once. The
key is sent as a bearer token and appears in no error or log line.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Sequence
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
import numpy as np

from app.embed.base import (
    REQUEST,
    DenseEncoding,
    Patience,
    Tokenizer,
    checked_vectors,
    normalized,
)
from app.embed.config import EmbedderConfig
from app.embed.turns import Turns
from app.errors import BadGateway, RagError, Unavailable

log = logging.getLogger("ragsearch")

DEFAULT_MAX_TOKENS = 8191
FIRST_BACKOFF = 0.5
ERROR_TEXT_CHARS = 300


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Retry-After in seconds (a number of seconds, or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class _Retryable(Exception):
    def __init__(self, reason: str, wait: float | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


class OpenAIEmbedder(DenseEncoding):
    def __init__(
        self, config: EmbedderConfig, space: str, dims: int, key: str | None,
        client: httpx.AsyncClient,
    ) -> None:  # fmt: skip
        assert config.url is not None
        self.config = config
        self.space = space
        self.dims = dims
        self._key = key
        self._client = client
        self._endpoint = config.url.rstrip("/") + "/embeddings"
        self._turns = Turns(config.concurrency)

    @property
    def max_tokens(self) -> int:
        return self.config.max_tokens or DEFAULT_MAX_TOKENS

    def tokenizer(self) -> Tokenizer | None:
        return None

    def _scrubbed(self, text: str) -> str:
        text = text[:ERROR_TEXT_CHARS]
        return text.replace(self._key, "***") if self._key else text

    def _upstream_error(self, response: httpx.Response) -> str:
        try:
            body: Any = response.json()
            message = body.get("error", body) if isinstance(body, dict) else body
            if isinstance(message, dict):
                message = message.get("message", message)
            text = str(message)
        except ValueError:
            text = response.text
        return self._scrubbed(f"HTTP {response.status_code}: {text}".strip())

    async def _call(self, texts: list[str]) -> np.ndarray:
        body: dict[str, Any] = {"model": self.config.model, "input": texts}
        if self.config.dimensions is not None:
            body["dimensions"] = self.config.dimensions
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        try:
            response = await self._client.post(
                self._endpoint, json=body, headers=headers, timeout=self.config.timeout
            )
        except httpx.TimeoutException:
            raise _Retryable(f"no answer within {self.config.timeout:g} s", None) from None
        except httpx.TransportError as error:
            raise _Retryable(f"cannot reach the endpoint ({type(error).__name__})", None) from None
        if response.status_code == 429 or response.status_code >= 500:
            wait = retry_after_seconds(response.headers.get("retry-after"))
            raise _Retryable(self._upstream_error(response), wait)
        if response.status_code != 200:
            raise BadGateway(
                f"the embedder of space {self.space!r} refused the texts: "
                f"{self._upstream_error(response)}", space=self.space,
            )  # fmt: skip
        return self._vectors(response, len(texts))

    def _vectors(self, response: httpx.Response, count: int) -> np.ndarray:
        try:
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            rows = np.asarray([item["embedding"] for item in data], dtype=np.float64)
        except (ValueError, KeyError, TypeError):
            raise BadGateway(
                f"the embedder of space {self.space!r} answered something other than "
                "OpenAI's embeddings list; nothing was stored", space=self.space,
            ) from None  # fmt: skip
        rows = checked_vectors(self.space, rows, count, self.dims)
        return normalized(rows) if self.config.normalize else rows

    async def _batch(self, texts: list[str], patience: Patience) -> np.ndarray:
        retries = self.config.retries if patience.retries is None else patience.retries
        attempt = 0
        while True:
            try:
                async with self._turns.turn(patience.rank, patience.owner):
                    return await self._call(texts)
            except _Retryable as failure:
                wait = failure.wait
                if wait is None:
                    wait = FIRST_BACKOFF * 2**attempt * (1 + random.random() / 4)
                if attempt >= retries or wait > patience.max_wait:
                    log.warning("embedder of space %s failed: %s", self.space, failure.reason)
                    raise Unavailable(
                        f"the embedder of space {self.space!r} is unavailable "
                        f"({failure.reason}); nothing was stored",
                        retry_after=max(1, round(min(wait, 3600))), space=self.space,
                    ) from None  # fmt: skip
                attempt += 1
                await asyncio.sleep(wait)

    async def embed(self, texts: Sequence[str], patience: Patience = REQUEST) -> np.ndarray:
        size = self.config.batch_size
        batches = [list(texts[i : i + size]) for i in range(0, len(texts), size)]
        if not batches:
            return np.zeros((0, self.dims), dtype=np.float32)
        try:
            async with asyncio.TaskGroup() as group:  # one failure stops the other calls
                tasks = [group.create_task(self._batch(batch, patience)) for batch in batches]
        except* RagError as failed:
            raise failed.exceptions[0] from None
        return np.concatenate([task.result() for task in tasks])
