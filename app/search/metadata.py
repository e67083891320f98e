"""The metadata filter language: a condition on a chunk's metadata (merged over its
document's) in MongoDB's query language, as Pinecone, Chroma and LangChain's vector stores
write it, compiled to one SQL/JSON path predicate (``jsonb @@ jsonpath``, GIN-indexed).

    {"year": 2024}                          equality (on an array: any element)
    {"year": {"$gte": 2020, "$lt": 2025}}   comparisons, $in / $nin lists, $exists
    {"author.name": "Ada"}                  dotted keys reach into objects
    {"year": {"$not": {"$gt": 2020}}}       a key's operators negated (missing passes)
    {"$and": [..]}, {"$or": [..]}, {"$nor": [..]}, {"$not": {..}}
    several keys in one object: all must hold

Each operator is declared once, in ``OPERATORS``: its jsonpath form, what its operand must
be, and its meaning in Python (the tests' oracle). The compiler, its error messages, the
OpenAPI description and the conditions an explanation lists derive from that table.

Every comparison is written as ``exists(path ? (@ <op> value))``: the key's value (each
element, on an array) is compared where it is found, so that a value of another type simply
does not match, and a negation ($ne, $nin, $not, $nor) of a comparison that fails for that
reason does match (as in MongoDB); the key's path is walked once however long the list of a
$in. The GIN index on the metadata answers these forms.

Limits keep any filter cheap to compile and to evaluate on every chunk: ``MAX_*`` below; a
filter past one is a 400 naming the limit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from app.errors import BadRequest

MAX_KEY_LEVELS = 16
MAX_KEY_LENGTH = 512
MAX_STRING = 4096
MAX_LIST = 1000  # values of one $in / $nin
MAX_BRANCHES = 100  # filter objects of one $and / $or / $nor
MAX_NESTING = 8  # filter objects inside filter objects
MAX_COMPARISONS = 1000  # values compared in the whole filter (each $in value counts)
MAX_TEXT = 100_000  # characters of the filter as JSON


class JsonPath(str):
    """A compiled SQL/JSON path predicate (PostgreSQL's jsonpath type)."""


@dataclass(frozen=True)
class Operator:
    """A key operator. ``test`` is the comparison on one value (``@`` in jsonpath);
    ``negated`` operators hold where no value of the key passes it."""

    name: str
    operand: str  # "value": a scalar; "values": an array of scalars; "boolean"
    meaning: str  # for people
    test: str = ""  # the comparison, over "{value}"
    negated: bool = False
    holds: Callable[[Any, Any], bool] = lambda x, operand: False  # one value, the operand


def _equal(x: Any, y: Any) -> bool:
    if _both_numbers(x, y):
        return bool(x == y)
    return type(x) is type(y) and bool(x == y)


def _both_numbers(x: Any, y: Any) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y))


def _comparable(x: Any, y: Any) -> bool:
    return _both_numbers(x, y) or (isinstance(x, str) and isinstance(y, str))


OPERATORS: tuple[Operator, ...] = (
    Operator("$eq", "value", "equals", "@ == {value}", holds=_equal),
    Operator("$ne", "value", "differs from (or the key is missing)", "@ == {value}",
             negated=True, holds=_equal),
    Operator("$gt", "value", "greater than", "@ > {value}",
             holds=lambda x, y: _comparable(x, y) and x > y),
    Operator("$gte", "value", "at least", "@ >= {value}",
             holds=lambda x, y: _comparable(x, y) and x >= y),
    Operator("$lt", "value", "less than", "@ < {value}",
             holds=lambda x, y: _comparable(x, y) and x < y),
    Operator("$lte", "value", "at most", "@ <= {value}",
             holds=lambda x, y: _comparable(x, y) and x <= y),
    Operator("$in", "values", "equals one of", "@ == {value}",
             holds=lambda x, ys: any(_equal(x, y) for y in ys)),
    Operator("$nin", "values", "equals none of (or the key is missing)", "@ == {value}",
             negated=True, holds=lambda x, ys: any(_equal(x, y) for y in ys)),
    Operator("$exists", "boolean", "true: the key is present; false: it is missing"),
)  # fmt: skip
BY_NAME = {op.name: op for op in OPERATORS}
LOGICAL = ("$and", "$or", "$nor", "$not")
OPERATOR_NAMES = ", ".join(BY_NAME)


def describe() -> str:
    """The language in one paragraph (the OpenAPI description of ``filter``)."""
    return (
        'A condition on metadata (the chunk\'s over its document\'s): {"year": {"$gte": '
        '2020}, "lang": {"$in": ["en", "fr"]}}; operators '
        + ", ".join(f"{op.name} ({op.meaning})" for op in OPERATORS)
        + '; $not over a key\'s operators ({"year": {"$not": {"$gt": 2020}}}); '
        "$and, $or, $nor over arrays of conditions, $not over one; a bare value is "
        "equality; dotted keys reach into objects; on an array, a comparison holds when it "
        "holds for any element."
    )


class _Budget:
    """The comparisons compiled so far, against MAX_COMPARISONS."""

    def __init__(self) -> None:
        self.used = 0

    def spend(self, count: int, where: str) -> None:
        self.used += count
        if self.used > MAX_COMPARISONS:
            raise BadRequest(
                f"{where}: the filter compares more than {MAX_COMPARISONS} values in all "
                "(each $in / $nin value counts)",
                field="filter",
            )


def _fail(message: str, **extra: Any) -> BadRequest:
    return BadRequest(message, field="filter", **extra)


def key_path(key: str, where: str) -> str:
    """A dotted key as a jsonpath accessor: "author.name" -> $."author"."name"."""
    parts = key.split(".")
    if not key or "" in parts or len(parts) > MAX_KEY_LEVELS or len(key) > MAX_KEY_LENGTH:
        raise _fail(
            f'{where}: "{key[:100]}" is not a metadata key (non-empty names joined by dots, '
            f"at most {MAX_KEY_LEVELS} levels and {MAX_KEY_LENGTH} characters)"
        )
    return "$" + "".join("." + _literal(part) for part in parts)


def _literal(value: Any) -> str:
    """A JSON scalar as a jsonpath literal (JSON's string escapes are jsonpath's too)."""
    return orjson.dumps(value).decode()


def scalar(value: Any, where: str) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        raise _fail(f"{where}: a metadata value must be a finite number")
    if not (value is None or isinstance(value, str | int | float | bool)):
        raise _fail(f"{where}: a metadata value must be a string, number, boolean or null")
    if isinstance(value, str) and len(value) > MAX_STRING:
        raise _fail(f"{where}: at most {MAX_STRING} characters")
    return _literal(value)


def _values(operand: Any, where: str) -> list[str]:
    if not isinstance(operand, list) or len(operand) > MAX_LIST:
        raise _fail(f"{where} must be an array of at most {MAX_LIST} values")
    return [scalar(value, f"{where}[{n}]") for n, value in enumerate(operand)]


def _comparison(path: str, op: Operator, operand: Any, where: str, budget: _Budget) -> str:
    if op.operand == "boolean":
        if not isinstance(operand, bool):
            raise _fail(f"{where} must be true or false")
        return f"exists({path})" if operand else f"!exists({path})"
    values = _values(operand, where) if op.operand == "values" else [scalar(operand, where)]
    budget.spend(len(values), where)
    if not values:  # $in [] holds for nothing, $nin [] for everything
        return "(1 == 1)" if op.negated else "(1 == 0)"
    tests = " || ".join(op.test.format(value=value) for value in values)
    found = f"exists({path} ? ({tests}))"
    return f"!{found}" if op.negated else found


def key_condition(key: str, condition: Any, where: str, budget: _Budget | None = None) -> str:
    """One key's condition: ``{"$gte": 1, "$lt": 5}``, or a bare value (equality)."""
    budget = budget or _Budget()
    path = key_path(key, where)
    if not isinstance(condition, dict):
        return _comparison(path, BY_NAME["$eq"], condition, where, budget)
    if not condition:
        raise _fail(f"{where}: an empty condition")
    parts = []
    for name, operand in condition.items():
        if name == "$not":
            parts.append(_key_not(key, operand, f"{where}.$not", budget))
            continue
        op = BY_NAME.get(name)
        if op is None and name.startswith("$"):
            raise _fail(
                f'{where}: unknown operator "{name}" (known: {OPERATOR_NAMES}, $not)',
                operator=name,
            )
        if op is None:
            raise _fail(
                f"{where}: a condition maps operators to values; reach into objects with a "
                f'dotted key ("{key}.{name}")'
            )
        parts.append(_comparison(path, op, operand, f"{where}.{name}", budget))
    return "(" + " && ".join(parts) + ")"


def _key_not(key: str, operand: Any, where: str, budget: _Budget) -> str:
    """``{"year": {"$not": {"$gt": 2020}}}``: the key's operators do not all hold (a chunk
    without the key passes, as in MongoDB)."""
    operators = isinstance(operand, dict) and bool(operand) and "$not" not in operand
    if not operators or not all(name.startswith("$") for name in operand):
        raise _fail(f'{where} must be an object of operators other than $not ({{"$gt": 1}})')
    return "!" + key_condition(key, operand, where, budget)


def _logical(name: str, operand: Any, where: str, depth: int, budget: _Budget) -> str:
    if name == "$not":
        return "!" + _predicate(operand, where, depth + 1, budget)
    if not isinstance(operand, list) or len(operand) > MAX_BRANCHES:
        raise _fail(f"{where} must be an array of at most {MAX_BRANCHES} filter objects")
    if not operand:
        return "(1 == 0)" if name == "$or" else "(1 == 1)"
    joined = (" && " if name == "$and" else " || ").join(
        _predicate(part, f"{where}[{n}]", depth + 1, budget) for n, part in enumerate(operand)
    )
    return ("!" if name == "$nor" else "") + f"({joined})"


def _predicate(condition: Any, where: str, depth: int, budget: _Budget) -> str:
    if not isinstance(condition, dict):
        raise _fail(f"{where} must be an object")
    if depth > MAX_NESTING:
        raise _fail(f"{where}: nested deeper than {MAX_NESTING} levels")
    parts = []
    for key, value in condition.items():
        at = f"{where}.{key}"
        if key in LOGICAL:
            parts.append(_logical(key, value, at, depth, budget))
        elif key.startswith("$"):
            raise _fail(
                f'{where}: unknown operator "{key}" (known: {", ".join(LOGICAL)}, or a key)',
                operator=key,
            )
        else:
            parts.append(key_condition(key, value, at, budget))
    return "(" + " && ".join(parts) + ")" if parts else "(1 == 1)"


def compile_filter(condition: Mapping[str, Any], where: str = "filter") -> JsonPath:
    """The whole filter as one jsonpath predicate, or a 400 naming what is wrong."""
    if len(orjson.dumps(condition)) > MAX_TEXT:
        raise _fail(f"{where}: the filter is longer than {MAX_TEXT} characters")
    return JsonPath(_predicate(dict(condition), where, 1, _Budget()))


@dataclass(frozen=True)
class Condition:
    """One comparison of a filter on its own, with where it sits (for explanations)."""

    label: str  # e.g. "filter.year $gte 2020"
    path: JsonPath


def conditions(condition: Mapping[str, Any], where: str = "filter") -> Iterator[Condition]:
    """Each comparison of a (compiled, hence valid) filter, in order."""
    for key, value in condition.items():
        if key in ("$and", "$or", "$nor"):
            for n, part in enumerate(value):
                yield from conditions(part, f"{where}.{key}[{n}]")
        elif key == "$not":
            yield from conditions(value, f"{where}.$not")
        elif isinstance(value, dict):
            for name, operand in value.items():
                label = f"{where}.{key} {name} {_display(operand)}"
                yield Condition(label, JsonPath(key_condition(key, {name: operand}, where)))
        else:
            label = f"{where}.{key} = {_display(value)}"
            yield Condition(label, JsonPath(key_condition(key, value, where)))


def _display(value: Any) -> str:
    """A value as PostgreSQL writes jsonb (", " between items)."""
    return json.dumps(value, ensure_ascii=False)


def key_values(metadata: Mapping[str, Any], key: str) -> Sequence[Any] | None:
    """The values a comparison on ``key`` sees (each element of an array), None when the
    key is missing: the oracle's view of a lookup."""
    node: Any = metadata
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, list) else [node]
