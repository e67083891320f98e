"""Vectors as clients send them, and what each kind of space accepts.

A space has a kind (app/spaces.py): ``dense`` (one vector of ``dims`` numbers),
``sparse`` (a vector over a vocabulary of ``dims`` terms, given by its non-zero entries)
or ``multivector`` (one vector of ``dims`` numbers per token, late interaction). A request
writes each in its own shape, told apart by the JSON alone:

    dense        [0.1, 0.2, ...]  or base64 of little-endian float32
    sparse       {"indices": [3, 17, ...], "values": [0.4, 1.2, ...], "dim": 30522}
                 (indices from 0, increasing; "dim" optional: the space's when given)
    multivector  [[0.1, ...], [0.3, ...], ...]  (one number[] per token)

``as_space_value`` checks a value against its space and returns what is stored or
searched: a float32 array (dense), a pgvector SparseVector (sparse) or a 2-D float32
array (multivector). Every vector's length (L2 norm; each token's for multivector) lies
within MIN_NORM..MAX_NORM, so that every similarity is a finite, meaningful number.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Annotated, Any

import numpy as np
import orjson
from pgvector import SparseVector, Vector
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from app.errors import BadRequest
from app.spaces import SpaceInfo
from app.validation import MAX_VECTOR, VECTOR_TAGS, Count, FiniteFloat

MAX_NONZERO = 16_000  # non-zero entries of one sparse vector (pgvector's sparsevec limit)
MAX_TOKENS = 512  # token vectors of one multivector value (a space may set fewer)
# A vector's length (L2 norm) must lie within these: pgvector sums the squares and the
# products of two vectors in float32, so a longer vector overflows to Infinity (and its
# cosine is NaN, which would rank first) and a shorter one underflows (every cosine 0 or
# 1); normalised embeddings have length 1, unnormalised ones rarely more than 1e3.
MIN_NORM = 1e-9
MAX_NORM = 1e9


class SparseInput(BaseModel):
    """A sparse vector by its non-zero entries."""

    model_config = ConfigDict(extra="forbid")

    indices: list[Annotated[Count, Field(ge=0, le=999_999_999)]] = Field(
        max_length=MAX_NONZERO, description="Term ids, from 0, increasing."
    )
    values: list[FiniteFloat] = Field(
        max_length=MAX_NONZERO, description="The weight of each index (non-zero)."
    )
    dim: Count | None = Field(
        default=None, ge=1, description="The vocabulary size; the space's when given."
    )


def _shape(value: Any) -> str:
    if isinstance(value, str):
        return "<base64>"
    if isinstance(value, dict):
        return VECTOR_TAGS[2]
    if isinstance(value, list) and value and isinstance(value[0], list):
        return VECTOR_TAGS[1]
    return VECTOR_TAGS[0]


Numbers = Annotated[list[FiniteFloat], Field(min_length=1, max_length=MAX_VECTOR)]
VectorInput = Annotated[
    Annotated[Numbers, Tag(VECTOR_TAGS[0])]
    | Annotated[str, Field(min_length=4, max_length=90_000), Tag("<base64>")]
    | Annotated[SparseInput, Tag(VECTOR_TAGS[2])]
    | Annotated[list[Numbers], Field(min_length=1, max_length=MAX_TOKENS), Tag(VECTOR_TAGS[1])],
    Discriminator(_shape),
    Field(
        description="A number[] (or base64 float32) for a dense space; {indices, values} for "
        "a sparse one; a number[][] (one per token) for a multivector one."
    ),
]
VectorValue = list[float] | str | SparseInput | list[list[float]]
SpaceValue = np.ndarray | SparseVector


def _decode_base64(text: str, field: str) -> np.ndarray:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raw = b"-"
    if not raw or len(raw) % 4:
        raise BadRequest(
            f"{field} must be a number[] or base64 of little-endian float32 values "
            f"(a multiple of 4 bytes)",
            field=field,
        )
    return np.frombuffer(raw, dtype="<f4").astype(np.float32)


def named_vectors(
    embedding: VectorValue | None,
    embeddings: Mapping[str, VectorValue] | None,
    default_space: str,
    prefix: str = "",
) -> dict[str, tuple[str, VectorValue]]:
    """The vectors of a body by space, each with the field it came from: ``embedding``
    is the default space's, ``embeddings`` names spaces; giving the default space both
    ways is an error (which one was meant?)."""
    named = {space: (f"{prefix}embeddings.{space}", v) for space, v in (embeddings or {}).items()}
    if embedding is not None:
        if default_space in named:
            raise BadRequest(
                f"give the default space vector once: {prefix}embedding or "
                f"{prefix}embeddings.{default_space}",
                field=f"{prefix}embedding",
            )
        named = {default_space: (f"{prefix}embedding", embedding), **named}
    return named


def _check_norm(squares: float, field: str) -> None:
    norm = float(np.sqrt(squares))
    if not MIN_NORM <= norm <= MAX_NORM:
        raise BadRequest(
            f"{field}: its length (L2 norm) is {norm:.3g}; it must be within 1e-9..1e9 for "
            "its similarities to be finite and meaningful",
            field=field,
        )


def as_vector(values: VectorValue, field: str, dims: int | None = None) -> np.ndarray:
    """A dense float32 vector that pgvector and cosine distance accept (of ``dims``
    numbers when given), or a 400 naming the field and what is wrong with it."""
    if isinstance(values, SparseInput) or (
        isinstance(values, list) and values and isinstance(values[0], list)
    ):
        raise BadRequest(f"{field} must be a number[] (a dense vector)", field=field)
    if isinstance(values, str):
        vector = _decode_base64(values, field)
    else:
        vector = np.asarray(values, dtype=np.float32)
    if vector.ndim != 1 or vector.size == 0:
        raise BadRequest(f"{field} must be a non-empty number[]", field=field)
    finite = np.isfinite(vector)
    if not finite.all():
        first = int(np.argmin(finite))
        raise BadRequest(
            f"{field}[{first}] is not finite (NaN, Infinity, or beyond the float32 range)",
            field=field,
        )
    if not np.any(vector):
        raise BadRequest(f"{field} must not be all zeros (cosine is undefined)", field=field)
    wide = vector.astype(np.float64)
    _check_norm(float(wide @ wide), field)
    if dims is not None and vector.size != dims:
        raise BadRequest(
            f"{field}: expected {dims} numbers, got {vector.size}",
            field=field,
            expected=dims,
            actual=int(vector.size),
        )
    return vector


def as_sparse(value: VectorValue, field: str, dims: int) -> SparseVector:
    """A sparse vector over ``dims`` terms, checked entry by entry."""
    if not isinstance(value, SparseInput):
        raise BadRequest(
            f'{field} must be a sparse vector: {{"indices": [...], "values": [...]}}', field=field
        )
    indices, values = value.indices, value.values
    if value.dim is not None and value.dim != dims:
        raise BadRequest(f"{field}.dim is {value.dim}; the space has {dims} terms", field=field,
                         expected=dims, actual=value.dim)  # fmt: skip
    if len(indices) != len(values):
        raise BadRequest(f"{field}: {len(indices)} indices but {len(values)} values", field=field)
    if not indices:
        raise BadRequest(f"{field} must have at least one non-zero entry", field=field)
    for n, (index, weight) in enumerate(zip(indices, values, strict=True)):
        if index >= dims:
            raise BadRequest(f"{field}.indices[{n}] is {index}: must be below {dims}", field=field)
        if n and index <= indices[n - 1]:
            raise BadRequest(f"{field}.indices[{n}] must be greater than the one before it "
                             "(increasing, no repeats)", field=field)  # fmt: skip
        if weight == 0:
            raise BadRequest(f"{field}.values[{n}] is 0: list the non-zero entries only",
                             field=field)  # fmt: skip
    wide = np.asarray(values, dtype=np.float64)
    if not np.isfinite(wide.astype(np.float32)).all():
        raise BadRequest(f"{field}.values: beyond the float32 range", field=field)
    _check_norm(float(wide @ wide), field)
    return SparseVector(dict(zip(indices, values, strict=True)), dims)


def as_tokens(value: VectorValue, field: str, dims: int, max_tokens: int) -> np.ndarray:
    """A multivector: 1..max_tokens token vectors of ``dims`` numbers each."""
    if not isinstance(value, list) or not value or not isinstance(value[0], list):
        raise BadRequest(
            f"{field} must be a multivector: a number[][], one number[] per token", field=field
        )
    if len(value) > max_tokens:
        raise BadRequest(f"{field} has {len(value)} token vectors; the space takes at most "
                         f"{max_tokens}", field=field)  # fmt: skip
    return np.stack([as_vector(token, f"{field}[{n}]", dims) for n, token in enumerate(value)])


def as_space_value(value: VectorValue, field: str, space: SpaceInfo) -> SpaceValue:
    """``value`` checked against ``space``'s kind and size."""
    if space.kind == "sparse":
        return as_sparse(value, field, space.dims)
    if space.kind == "multivector":
        return as_tokens(value, field, space.dims, space.max_tokens or MAX_TOKENS)
    return as_vector(value, field, space.dims)


def stored_value(kind: str, text: str) -> Any:
    """A stored vector, from PostgreSQL's text form, in the shape a request writes it."""
    if kind != "sparse":
        return orjson.loads(text)
    entries, dim = text.rsplit("/", 1)
    pairs = [item.split(":") for item in entries.strip("{}").split(",") if item]
    return {"indices": [int(i) - 1 for i, _ in pairs],  # pgvector counts from 1
            "values": [float(v) for _, v in pairs], "dim": int(dim)}  # fmt: skip


def cache_columns(value: SpaceValue) -> dict[str, Any]:
    """A dense or multivector value as rag.embedding_cache holds it (embedding, tokens)."""
    if isinstance(value, np.ndarray) and value.ndim == 2:
        return {"embedding": None, "tokens": [Vector(token) for token in value]}
    return {"embedding": value, "tokens": None}


def cached_value(embedding: Vector | None, tokens: list[Vector] | None) -> SpaceValue:
    if tokens is not None:
        return np.stack([token.to_numpy() for token in tokens]).astype(np.float32)
    assert embedding is not None
    return np.asarray(embedding.to_numpy(), dtype=np.float32)


def stand_in(space: SpaceInfo) -> SpaceValue:
    """Some valid value of ``space``'s kind (for planning a search whose values do not
    matter)."""
    if space.kind == "sparse":
        return SparseVector({0: 1.0}, space.dims)
    ones = np.ones(space.dims, dtype=np.float32)
    return ones[None, :] if space.kind == "multivector" else ones
