"""The service's error types and the one table that maps them to HTTP statuses.

Search, ingest, the CLI and the MCP server raise these; only the HTTP layer turns them
into responses (``register_error_handlers``), the MCP layer into tool errors.
Every body has an ``error`` string; some carry extra fields (``field``, ``expected``...).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import orjson
import psycopg
from psycopg_pool import PoolTimeout, TooManyRequests

log = logging.getLogger("ragsearch")

# SQLSTATEs raised by the api.* functions (sql/functions/errors.sql).
SQLSTATE_BAD_ARGUMENT = "RG400"
SQLSTATE_NOT_FOUND = "RG404"
SQLSTATE_CONFLICT = "RG409"


class RagError(Exception):
    """Base class: an error with a status, a message and optional extra body fields."""

    status = 500
    kind = "internal"  # the label of a 5xx in the metrics
    retry_after: int | None = None  # seconds, sent as Retry-After

    def __init__(self, message: str, /, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.message, **self.extra}


class BadRequest(RagError):
    """The request breaks a rule: a field is missing, has the wrong type or range."""

    status = 400


class Unauthorized(RagError):
    """No bearer token, or one that no configured key matches."""

    status = 401

    def __init__(self) -> None:
        super().__init__("Unauthorized")


class Forbidden(RagError):
    """A valid token whose scope does not allow this operation (a read key writing)."""

    status = 403


class NotFound(RagError):
    """The named document, chunk, space or profile does not exist."""

    status = 404


class Conflict(RagError):
    """The request would clash with stored data (a taken name or chunk_id)."""

    status = 409


class DroppedWhileRunning(Conflict):
    """A collection's or space's tables or functions went under a request that had found
    them (another dropped them): the request is fine, and is to be sent again."""


class ClientClosedRequest(RagError):
    """The client closed the connection before its request body was read (nginx's 499):
    nothing was done, and nobody reads the answer."""

    status = 499

    def __init__(self) -> None:
        super().__init__("the client closed the connection before its request was read")


class PayloadTooLarge(RagError):
    """The request body is larger than RAG_MAX_BODY_BYTES."""

    status = 413


class UnsupportedMediaType(RagError):
    """The request body is not declared as JSON (Content-Type: application/json)."""

    status = 415


class Throttled(RagError):
    """The caller's key or collection has as many requests on the database as it may
    (app/api/shares.py): retry when one has finished."""

    status = 429

    def __init__(self, message: str, /, retry_after: int = 1, **extra: Any) -> None:
        super().__init__(message, **extra)
        self.retry_after = retry_after


class Unavailable(RagError):
    """The service cannot take the request now (pool exhausted, database starting)."""

    status = 503
    kind = "unavailable"

    def __init__(self, message: str, /, retry_after: int = 1, **extra: Any) -> None:
        super().__init__(message, **extra)
        self.retry_after = retry_after


class ConnectionLost(Unavailable):
    """The database connection broke under the request, or the database is down: a job
    stopped by it is taken again when its lease runs out."""


class BadGateway(RagError):
    """An upstream service (an embedder) answered what cannot be used: an error, vectors
    of the wrong dimensions, NaN. Nothing was stored."""

    status = 502
    kind = "upstream"


def invalid_space(name: str, valid: list[str]) -> BadRequest:
    """The one shape of "unknown embedding space" (api.raise_invalid_space raises the same)."""
    return BadRequest(
        "invalid_space",
        message=f"unknown embedding space {name!r}; valid spaces: {', '.join(valid)}",
        space=name,
        valid_spaces=valid,
    )


# A Citus worker the coordinator could not reach: named in the message ("connection to the
# remote node postgres@10.0.0.5:5432 failed") or in its context ("while executing command
# on 10.0.0.5:5432").
_WORKER = re.compile(r"(?:remote node (?:\S+@)?|command on )([^\s@]+:\d+)")


def unreachable_worker(error: psycopg.Error) -> str | None:
    """host:port of the worker a connection failure reported by the coordinator names;
    None for any other error (the service's own connection failing among them)."""
    if not (error.sqlstate or "").startswith("08") or error.diag is None:
        return None
    text = " ".join(filter(None, (error.diag.message_primary, error.diag.context)))
    found = _WORKER.search(text)
    return found.group(1) if found else None


def worker_unavailable(worker: str, collection: str | None = None) -> Unavailable:
    """503 for a request that needs a worker the coordinator cannot reach."""
    holder = f"collection {collection!r} is" if collection else "this data is"
    return Unavailable(
        f"{holder} stored on a worker of the cluster that is unreachable ({worker}); "
        "the other collections answer, and this one will once the worker is back",
        retry_after=2, unreachable=worker,
        **({"collection": collection} if collection else {}),
    )  # fmt: skip


def unknown_collection(name: str) -> NotFound:
    """The one shape of "no such collection" (api.collection_id raises the same)."""
    return NotFound(f"no collection named {name!r}", collection=name)


class GatewayTimeout(RagError):
    """The database did not answer in time: a statement ran past RAG_STATEMENT_TIMEOUT_MS
    (retrying the same request will not help), or the database did not answer at all
    within the request's deadline."""

    status = 504
    kind = "timeout"


# The 5xx kinds of the metrics by status, for answers that are not a RagError (/readyz).
KIND_OF_STATUS = {
    Unavailable.status: Unavailable.kind,
    GatewayTimeout.status: GatewayTimeout.kind,
    BadGateway.status: BadGateway.kind,
}


UNEXPECTED = "an unexpected error; the service log has it"
# A space's or a collection's tables and functions gone under a request that had found
# them (dropped by another): the request is fine, and is to be sent again.
DROPPED_WHILE_RUNNING = ("a collection or embedding space this request uses was dropped "
                         "while it ran; send it again")  # fmt: skip


class InternalError(RagError):
    """An unexpected failure, reported without secrets or a stack trace."""

    status = 500

    def __init__(self, detail: str) -> None:
        super().__init__("internal_error", detail=detail)


def _detail_fields(error: psycopg.Error) -> dict[str, Any]:
    detail = error.diag.message_detail if error.diag else None
    if not detail:
        return {}
    try:
        fields = orjson.loads(detail)
    except orjson.JSONDecodeError:
        return {"detail": detail}
    return fields if isinstance(fields, dict) else {}


# Driver errors a request can cause with values the edge let through, by class, with what
# to tell the client (no table, column or constraint names).
_BAD_VALUES: tuple[tuple[type[psycopg.Error], str], ...] = (
    (psycopg.errors.NumericValueOutOfRange, "a number is out of the range it is stored in"),
    (psycopg.errors.DatetimeFieldOverflow, "a timestamp is out of the range it is stored in"),
    (psycopg.errors.InvalidDatetimeFormat, "a timestamp is not valid"),
    (psycopg.errors.CheckViolation, "a value breaks a rule of the stored data"),
    (psycopg.errors.NotNullViolation, "a required value is missing"),
    (psycopg.errors.ProgramLimitExceeded, "a value is larger than the database can index"),
    (psycopg.errors.CharacterNotInRepertoire, "a text holds a character that cannot be stored"),
    (psycopg.errors.UntranslatableCharacter, "a text holds a character that cannot be stored"),
    (psycopg.errors.InvalidParameterValue, "a value is not valid"),
    (psycopg.errors.InvalidTextRepresentation, "a value is not valid"),
)


def is_write_collision(error: psycopg.Error) -> bool:
    """A deadlock or serialization failure (SQLSTATE class 40): the transaction was undone
    and may simply be retried; the connection is fine."""
    return (error.sqlstate or "").startswith("40")


def connection_lost(error: psycopg.Error) -> bool:
    """The driver's own failure (no SQLSTATE), a connection exception (class 08) or the
    server ending the session (57P: shutdown, crash, a dropped database, an idle timeout).
    Any other SQLSTATE is the statement's, on a connection that is fine: a collision, a
    cancel, a full lock table, a value past an index's row size (class 54); and so is an
    unreachable Citus worker (the coordinator answered)."""
    if unreachable_worker(error) is not None:
        return False
    state = error.sqlstate
    if state is None:  # the driver's own: only its OperationalError is a broken connection
        return isinstance(error, psycopg.OperationalError)
    return state.startswith(("08", "57P"))


def passing(error: psycopg.Error) -> bool:
    """A failure that passes with time: a write collision (class 40), a server short of a
    resource (53, a full lock table), a lock or a statement that waited too long (55P03,
    57014)."""
    state = error.sqlstate or ""
    return state.startswith(("40", "53")) or state in ("55P03", "57014")


def _lock_table_full(error: psycopg.Error) -> bool:
    """PostgreSQL's "out of shared memory" with the hint to raise max_locks_per_transaction
    (SQLSTATE 53200): every connection's locks share one table (see
    app/resources/collection_limit.py)."""
    hint = error.diag.message_hint if error.diag else None
    return error.sqlstate == "53200" and "max_locks_per_transaction" in (hint or "")


def _from_psycopg(error: psycopg.Error) -> RagError:
    message = error.diag.message_primary if error.diag else None
    if error.sqlstate == SQLSTATE_BAD_ARGUMENT:
        return BadRequest(message or "bad argument", **_detail_fields(error))
    if error.sqlstate == SQLSTATE_NOT_FOUND:
        return NotFound(message or "not found", **_detail_fields(error))
    if error.sqlstate == SQLSTATE_CONFLICT:
        fields = _detail_fields(error)
        if fields.pop("dropped", None) is True:
            return DroppedWhileRunning(message or DROPPED_WHILE_RUNNING, **fields)
        return Conflict(message or "conflict", **fields)
    if isinstance(error, psycopg.errors.QueryCanceled):
        return GatewayTimeout(
            "search_timeout",
            message="the database took longer than RAG_STATEMENT_TIMEOUT_MS to answer; "
            "narrow the request (a search's filters or k; a write's chunks, in smaller "
            "documents or requests) or raise the limit",
        )
    if isinstance(error, psycopg.errors.UniqueViolation):
        return Conflict("the request clashes with stored data (a name or id already taken)")
    for kind, text in _BAD_VALUES:
        if isinstance(error, kind):
            return BadRequest(text)
    if is_write_collision(error):
        return Unavailable("the request collided with a concurrent change and was undone; "
                           "retry it", retry_after=1)  # fmt: skip
    if dropped_while_running(error):  # a missing table or function of one space or collection
        log.warning("a table or function went while a request ran: %s", message)
        return DroppedWhileRunning(DROPPED_WHILE_RUNNING)
    if _lock_table_full(error):
        log.warning("the database's lock table is full: raise max_locks_per_transaction, or "
                    "lower RAG_MAX_COLLECTIONS")  # fmt: skip
        return Unavailable("the database's lock table is full (too many tables locked at "
                           "once); retry shortly", retry_after=2)  # fmt: skip
    worker = unreachable_worker(error)
    if worker is not None:
        log.error("worker %s unreachable", worker)
        return worker_unavailable(worker)
    if isinstance(error, psycopg.OperationalError):
        log.error("database unavailable: %s", type(error).__name__)
        return Unavailable("the database is unavailable; retry shortly", retry_after=2)
    log.error("database error %s: %s", error.sqlstate, message)
    return InternalError(f"database error {error.sqlstate}" if error.sqlstate else "database error")


# The tables and functions made for one space or one collection are named with its id
# (rag.vectors_3, rag.chunks_12, rag.vectors_3_12, api.space_3_walk); any other missing
# is a fault of the service or its schema (RAG_MIGRATE_ON_START off), not a drop.
_PER_OBJECT = re.compile(r"\b(?:rag|api)\.[a-z_]*_\d+")


def _per_space_or_collection(error: psycopg.Error) -> bool:
    message = error.diag.message_primary if error.diag else None
    return bool(_PER_OBJECT.search(message or ""))


def dropped_while_running(error: Exception) -> bool:
    """A table, function or space gone under a request that had found it (another request
    dropped it): sent again, the request finds what is left."""
    if isinstance(error, DroppedWhileRunning):
        return True
    if isinstance(error, psycopg.errors.UndefinedTable | psycopg.errors.UndefinedFunction):
        return _per_space_or_collection(error)
    if isinstance(error, psycopg.Error) and error.sqlstate == SQLSTATE_CONFLICT:
        return _detail_fields(error).get("dropped") is True
    return False


def from_database_error(error: Exception) -> RagError:
    """Translate a driver or pool exception into one of ours, by class and SQLSTATE."""
    if isinstance(error, RagError):
        return error
    if isinstance(error, PoolTimeout | TooManyRequests):
        return Unavailable("every database connection is busy; retry shortly")
    if isinstance(error, psycopg.Error):
        return _from_psycopg(error)
    log.exception("unexpected error", exc_info=error)
    return InternalError(UNEXPECTED)
