"""What the client raises: one class per error status the API sends, each carrying the
status and the error body; transport failures (no answer at all) apart."""

from __future__ import annotations

from typing import Any


class RagsearchError(Exception):
    """Anything the client raises."""


class TransportError(RagsearchError):
    """The service could not be reached, or did not answer in time."""


class APIError(RagsearchError):
    """The service answered with an error status: ``status_code``, the decoded ``body``
    (the JSON error object, or the text when the body is not JSON) and ``message``: the
    body's ``message`` where it has one (a coded ``error`` such as ``invalid_profile``
    explains itself there), else its ``error``, which names the field and the rule."""

    def __init__(self, status_code: int, body: Any, method: str, url: str) -> None:
        self.status_code = status_code
        self.body = body
        self.method = method
        self.url = url
        self.message = _message(body)
        super().__init__(f"{status_code} from {method} {url}: {self.message[:500]}")


def _message(body: Any) -> str:
    if not isinstance(body, dict):
        return str(body)
    explained = body.get("message")
    return str(explained if isinstance(explained, str) and explained else body.get("error", body))


class BadRequestError(APIError):
    """400: a field breaks a rule (the message names the field and the rule)."""


class AuthenticationError(APIError):
    """401: no key, or a key the service does not know."""


class PermissionDeniedError(APIError):
    """403: the key may not do this (a read key writing, a collection outside its scope)."""


class NotFoundError(APIError):
    """404: the named collection, document, chunk, space, profile or goal does not exist."""


class ConflictError(APIError):
    """409: the request clashes with stored data (a taken name or chunk_id)."""


class PayloadTooLargeError(APIError):
    """413: the body is larger than the service's RAG_MAX_BODY_BYTES."""


class RateLimitedError(APIError):
    """429: too many requests (retried by the client before it is raised)."""


class UnavailableError(APIError):
    """503: the database is unavailable or every connection is busy (retried by the client
    before it is raised)."""


class GatewayTimeoutError(APIError):
    """504: the database did not answer within the service's statement timeout."""


class ServerError(APIError):
    """Another 5xx."""


BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    429: RateLimitedError,
    503: UnavailableError,
    504: GatewayTimeoutError,
}


class JobFailedError(RagsearchError):
    """A job the client waited for did not store what it was given: ``job`` says why."""

    def __init__(self, job: Any, reason: str) -> None:
        super().__init__(f"job {job.id} {job.status}: {reason}")
        self.job = job
        self.reason = reason


def error_class(status_code: int) -> type[APIError]:
    return BY_STATUS.get(status_code, ServerError if status_code >= 500 else APIError)
