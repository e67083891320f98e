"""Forgiving readings of tool arguments, for callers that send sloppy values (agents).

The REST API rejects a bad value; the MCP tools read what they can and say what they
did instead: a weight that is not a usable number falls back to its default and is
reported, a ``k`` outside its range is clamped and noted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Replaced:
    """A given value that could not be used, why, and what was used instead."""

    name: str
    given: Any
    reason: str

    def as_dict(self, used: Any) -> dict[str, Any]:
        return {"name": self.name, "given": _printable(self.given), "reason": self.reason,
                "used": used}  # fmt: skip


def _printable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _number(value: Any) -> float | str:
    """The value as a float, or the reason it is not one."""
    if value is None:
        return "not a number (null)"
    if isinstance(value, bool):
        return "not a number (boolean)"
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return "not a number (string)"
    if isinstance(value, int | float):
        return float(value)
    return f"not a number ({type(value).__name__})"


def unit_weight(name: str, value: Any) -> float | Replaced:
    """A weight in [0, 1], or why the given value is not one."""
    number = _number(value)
    if isinstance(number, str):
        return Replaced(name, value, number)
    if math.isnan(number):
        return Replaced(name, value, "NaN")
    if math.isinf(number):
        return Replaced(name, value, "infinite")
    if not 0 <= number <= 1:
        return Replaced(name, value, "outside [0,1]")
    return number


def clamped_count(
    name: str, value: Any, default: int, low: int, high: int
) -> tuple[int, str | None]:
    """An integer count in [low, high]: out-of-range values are clamped, unusable ones
    give the default; the note says which happened."""
    if value is None:
        return default, None
    number = _number(value)
    if isinstance(number, str) or not math.isfinite(number):
        reason = number if isinstance(number, str) else "not finite"
        return default, f"{name}={value!r} is {reason}; used the default {default}"
    count = round(number)
    clamped = min(high, max(low, count))
    if clamped != value:  # out of range, not whole, or not a number to begin with ("9")
        return clamped, f"{name}={value!r} read as {clamped} (a whole number in {low}..{high})"
    return clamped, None
