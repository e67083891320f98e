"""What the service accepts, in one place: field types that refuse what PostgreSQL cannot
store or compare, and turning validation failures into specific 400s (vectors have their
own module, app/vectors.py).

Every route, the CLI and the MCP server validate through ``parse_model``, so a bad field
always gets the same message: the field's path and the rule it breaks.

Text (ids, names, titles, chunk text, tags, queries) may hold any Unicode except NUL and
unpaired surrogates, which PostgreSQL cannot store. Ids (``doc_id``, ``chunk_id``) are
also free of control characters and surrounding spaces, so that they read the same in a
URL path, a log line and a terminal. Timestamps are moved to UTC and must fall within
0001-01-02 and 9999-12-30 there (a day inside the years 1..9999: readable in any time
zone). Metadata is a JSON object of at most ``METADATA_MAX_BYTES`` bytes
and ``METADATA_MAX_DEPTH`` levels
whose numbers are finite and whose integers fit in 64 bits.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    ValidationError,
)

from app.errors import BadRequest

ModelT = TypeVar("ModelT", bound=BaseModel)

NAME_PATTERN = r"^[a-z][a-z0-9_]{0,62}$"  # spaces, profiles, goals
COLLECTION_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,62}$"
ID_MAX_LENGTH = 512
METADATA_MAX_DEPTH = 32
INT64 = 2**63
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
_ID_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")  # C0, DEL, C1 and surrogates
_SURROGATE = re.compile(r"[\ud800-\udfff]")  # in a str, always unpaired
EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
LATEST = datetime(9999, 12, 30, tzinfo=UTC)
TIMESTAMP_RANGE = "must fall within 0001-01-02T00:00:00Z..9999-12-30T00:00:00Z"


def storable_text(text: str) -> str:
    """Text read from a file, made storable: NUL dropped, an unpaired surrogate (a PDF's
    broken character map gives them) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text.replace("\x00", ""))


def _storable(value: str) -> str:
    if _UNSTORABLE.search(value):
        raise ValueError("must not contain NUL (\\u0000) or unpaired surrogate characters")
    return value


def _identifier(value: str) -> str:
    if _ID_UNSAFE.search(value):
        raise ValueError("must not contain control characters or unpaired surrogates")
    if value != value.strip():
        raise ValueError("must not start or end with whitespace")
    return value


def _utc_timestamp(value: datetime) -> datetime:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        value = value.astimezone(UTC)
    except OverflowError:
        raise ValueError(TIMESTAMP_RANGE) from None
    if not EARLIEST <= value <= LATEST:
        raise ValueError(TIMESTAMP_RANGE)
    return value


def check_json_value(value: Any, depth: int = 0) -> Any:
    """A JSON value PostgreSQL's jsonb stores and gives back unchanged; depth counts the
    objects and arrays around it (the metadata object itself is the first level)."""
    if isinstance(value, list | dict) and depth >= METADATA_MAX_DEPTH:
        raise ValueError(f"is nested deeper than {METADATA_MAX_DEPTH} levels")
    if isinstance(value, str):
        return _storable(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if not -INT64 <= value < INT64:
            raise ValueError("holds an integer beyond 64 bits")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("holds a number that is not finite (NaN or Infinity)")
        return value
    if isinstance(value, list):
        return [check_json_value(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {_storable(str(k)): check_json_value(v, depth + 1) for k, v in value.items()}
    raise ValueError(f"holds a value of type {type(value).__name__}")


def _whole_number(value: Any) -> Any:
    """A JSON number with no fraction is an integer (5.0 is 5; "5" and true are not)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# What JSON Schema allows in a string that PostgreSQL can store: no NUL.
STORABLE_PATTERN = r"^[^\u0000]*$"

Text = Annotated[str, AfterValidator(_storable), Field(pattern=STORABLE_PATTERN)]
Count = Annotated[int, BeforeValidator(_whole_number), Field(strict=True)]
Identifier = Annotated[
    str, Field(min_length=1, max_length=ID_MAX_LENGTH), AfterValidator(_identifier)
]
Name = Annotated[str, Field(pattern=NAME_PATTERN)]
CollectionName = Annotated[str, Field(pattern=COLLECTION_PATTERN)]


DATE_EXAMPLE = "2026-01-31T12:00:00Z"


def _written_date(value: Any) -> Any:
    """A timestamp is written as a date: a number (or a string of one), which pydantic would
    read as seconds since 1970, is refused rather than guessed at."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise ValueError(
            "must be an ISO 8601 timestamp, such as 2026-01-31T12:00:00Z, not a number"
        )
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return value
        raise ValueError(
            "must be an ISO 8601 timestamp, such as 2026-01-31T12:00:00Z, not a number"
        )
    return value


Timestamp = Annotated[datetime, BeforeValidator(_written_date), AfterValidator(_utc_timestamp)]
# Metadata is stored once per document and once per chunk, and every search with a
# metadata filter reads it: one object stays small.
METADATA_MAX_BYTES = 64 * 1024


def _small_metadata(value: dict[str, Any]) -> dict[str, Any]:
    size = len(orjson.dumps(value))
    if size > METADATA_MAX_BYTES:
        raise ValueError(
            f"must be at most {METADATA_MAX_BYTES:,} bytes as JSON (got {size:,}); store large "
            "values in the chunk text or elsewhere"
        )
    return value


Metadata = Annotated[
    dict[str, Any], AfterValidator(check_json_value), AfterValidator(_small_metadata)
]
FiniteFloat = Annotated[float, Field(strict=True, allow_inf_nan=False)]
UnitFloat = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=1)]
PositiveFloat = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0)]
# Tags of the shapes a vector may take in a request (app/vectors.py declares them); the
# messages below say precisely what is wrong inside one.
MAX_VECTOR = 16_000  # numbers in one vector
VECTOR_TAGS = ("<number[]>", "<tokens>", "<sparse>")

# A rule message per top-level field: either a fixed string or one built from the path.
RuleMessages = Mapping[str, str | Callable[[str], str]]


def field_path(loc: tuple[str | int, ...]) -> str:
    path = ""
    for part in loc:
        if isinstance(part, str) and part.startswith("<"):
            continue  # the branch of a tagged union, such as VectorInput's
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


def _message(error: Mapping[str, Any], rules: RuleMessages) -> str:
    loc = tuple(part for part in error["loc"] if part not in ("function-after", "function-plain"))
    path = field_path(loc)
    if error["type"] == "extra_forbidden":
        return f"unknown field '{path}'"
    if error["type"] == "missing":
        return f"{path} is required"
    if error["type"] == "json_invalid":
        return f"request body is not valid JSON: {error.get('msg', '')}"
    if error["type"] == "model_type" and not loc:
        return "request body must be a JSON object"
    if error["type"] in ("too_long", "string_too_long") and isinstance(error.get("input"), str):
        limit = error.get("ctx", {}).get("max_length")
        return f"{path} must be at most {limit:,} characters long (got {len(error['input']):,})"
    vector = _vector_message(error, path)
    if vector:
        return vector
    message = str(error["msg"])
    if message.startswith("Value error, "):  # our own validators name the rule exactly
        rule = message[len("Value error, ") :]
        if not path:  # a rule across fields, which names them itself
            return rule
        return f"{path} {rule}" if rule.startswith("must") else f"{path}: {rule}"
    named = rules.get(str(loc[0])) if loc else None
    if callable(named):
        return named(path)
    if named:
        return named
    return f"{path}: {message}"


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    kinds: dict[type, str] = {str: "a string", list: "an array", dict: "an object"}
    return kinds.get(type(value), "not a number")


def _vector_message(error: Mapping[str, Any], path: str) -> str | None:
    """What is wrong with a number[] vector (VectorInput), said precisely: its length, the
    type of an element, an element that is not finite. None: the generic rule applies."""
    if not any(tag in error["loc"] for tag in VECTOR_TAGS):
        return None
    kind, given = error["type"], error.get("input")
    if kind == "too_long" and isinstance(given, list):
        limit = error.get("ctx", {}).get("max_length", MAX_VECTOR)
        unit = "numbers" if VECTOR_TAGS[0] in error["loc"] else "entries"
        return f"{path} must have at most {limit:,} {unit} (got {len(given):,})"
    if kind == "finite_number":
        return f"{path} is not finite: vectors hold finite numbers (no NaN or Infinity)"
    if kind in ("float_parsing", "float_type"):
        return f"{path} must be a number (got {_kind(given)})"
    if VECTOR_TAGS[2] in error["loc"]:  # a sparse vector: pydantic's words, at their path
        return f"{path}: {error['msg']}"
    return None


# Given the location of a validation failure and its message, a more specific error.
Locator = Callable[[tuple[str | int, ...], str], BadRequest | None]


def bad_request_from(
    error: ValidationError, rules: RuleMessages, locate: Locator | None = None
) -> BadRequest:
    """The first failure of a pydantic validation, as one specific 400 error."""
    errors = error.errors(include_url=False)
    # An unknown field (often a misspelt one) explains the others, so it comes first.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    message = _message(first, rules)
    located = locate(tuple(first["loc"]), message) if locate else None
    return located or BadRequest(message)


def parse_model(
    model: type[ModelT], body: bytes | Mapping[str, Any], rules: RuleMessages,
    locate: Locator | None = None,
) -> ModelT:  # fmt: skip
    """Validate raw JSON bytes or an already-parsed mapping against a request model."""
    try:
        if isinstance(body, bytes | bytearray):
            if not body.strip():
                raise BadRequest("request body must be a JSON object")
            return model.model_validate_json(body)
        return model.model_validate(body)
    except ValidationError as error:
        raise bad_request_from(error, rules, locate) from None
