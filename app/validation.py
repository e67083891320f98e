"""Request bodies: parsing, and turning validation failures into specific 400 errors.

Every route, the CLI and the MCP server validate through ``parse_model``, so a bad
field always gets the same message: the field's path and the rule it breaks.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

import numpy as np
from pydantic import BaseModel, Discriminator, Field, Tag, ValidationError

from app.errors import BadRequest

ModelT = TypeVar("ModelT", bound=BaseModel)

FiniteFloat = Annotated[float, Field(strict=True, allow_inf_nan=False)]
UnitFloat = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=1)]
PositiveFloat = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0)]
# A vector: a JSON number array, or a base64 string of little-endian float32 values (the
# form OpenAI's embeddings API returns with encoding_format="base64"), which parses ~20x
# faster than JSON numbers.
VectorInput = Annotated[
    Annotated[list[FiniteFloat], Field(min_length=1, max_length=16_000), Tag("<number[]>")]
    | Annotated[str, Field(min_length=4, max_length=90_000), Tag("<base64>")],
    Discriminator(lambda value: "<base64>" if isinstance(value, str) else "<number[]>"),
]

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


def _message(error: Mapping[str, Any], rules: RuleMessages) -> tuple[str, str]:
    loc = tuple(part for part in error["loc"] if part not in ("function-after", "function-plain"))
    path = field_path(loc)
    if error["type"] == "extra_forbidden":
        return f"unknown field '{path}'", path
    if error["type"] == "missing":
        return f"{path} is required", path
    if error["type"] == "json_invalid":
        return f"request body is not valid JSON: {error.get('msg', '')}", "body"
    if error["type"] == "model_type" and not loc:
        return "request body must be a JSON object", "body"
    rule = rules.get(str(loc[0])) if loc else None
    if callable(rule):
        return rule(path), path
    if rule:
        return rule, path
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    return f"{path}: {message}", path


def bad_request_from(error: ValidationError, rules: RuleMessages) -> BadRequest:
    """The first failure of a pydantic validation, as one specific 400 error."""
    errors = error.errors(include_url=False)
    # An unknown field (often a misspelt one) explains the others, so it comes first.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    message, _path = _message(first, rules)
    return BadRequest(message)


def parse_model(
    model: type[ModelT], body: bytes | Mapping[str, Any], rules: RuleMessages
) -> ModelT:
    """Validate raw JSON bytes or an already-parsed mapping against a request model."""
    try:
        if isinstance(body, bytes | bytearray):
            if not body.strip():
                raise BadRequest("request body must be a JSON object")
            return model.model_validate_json(body)
        return model.model_validate(body)
    except ValidationError as error:
        raise bad_request_from(error, rules) from None


def _decode_base64(text: str, field: str) -> np.ndarray:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raw = b"-"
    if not raw or len(raw) % 4:
        raise BadRequest(
            f"{field} must be a number[] or base64 of little-endian float32 values", field=field
        )
    return np.frombuffer(raw, dtype="<f4").astype(np.float32)


def as_vector(values: list[float] | str, field: str) -> np.ndarray:
    """A float32 vector that pgvector and cosine distance accept, or a 400 naming the field."""
    if isinstance(values, str):
        vector = _decode_base64(values, field)
    else:
        vector = np.asarray(values, dtype=np.float32)
    if vector.ndim != 1 or vector.size == 0:
        raise BadRequest(f"{field} must be a non-empty number[]", field=field)
    if not np.isfinite(vector).all():
        raise BadRequest(
            f"{field} must contain only finite numbers (no NaN or Infinity, within float32 range)",
            field=field,
        )
    if not np.any(vector):
        raise BadRequest(f"{field} must not be all zeros (cosine is undefined)", field=field)
    return vector
