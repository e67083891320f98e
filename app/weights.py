"""The weight rules: how the weights a client sends become the weights a search uses.

Blend weights (``w_cos``, ``w_rec``, ``w_sig``):
  * each given weight is a finite number in [0, 1];
  * an omitted ``w_rec`` / ``w_sig`` takes its server default (RAG_DEFAULT_W_REC / _W_SIG);
  * an omitted ``w_cos`` is ``max(0, 1 - (w_rec + w_sig))``;
  * the three are then divided by their sum, so they always add up to 1
    (``w_rec=0.6, w_sig=0.6`` scores with 0, 0.5, 0.5); all zero is an error.

Space weights (``space_weights: {space: weight}``) apply to the spaces the query has a
vector for: each weight finite and >= 0, a space left out weighs 0, a weight for a space
the query has no vector for is an error, no weights at all means equal weights; they are
divided by their sum.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.errors import BadRequest


@dataclass(frozen=True)
class BlendWeights:
    w_cos: float
    w_rec: float
    w_sig: float

    def as_dict(self) -> dict[str, float]:
        return {"w_cos": self.w_cos, "w_rec": self.w_rec, "w_sig": self.w_sig}


def _check_unit(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadRequest(f"{name} must be a finite number in [0,1]", field=name)
    if not math.isfinite(value) or not 0 <= value <= 1:
        raise BadRequest(f"{name} must be a finite number in [0,1]", field=name)
    return float(value)


def blend_weights(
    w_rec: float | None,
    w_sig: float | None,
    w_cos: float | None = None,
    *,
    default_w_rec: float,
    default_w_sig: float,
) -> BlendWeights:
    """Apply the blend-weight rule (see the module docstring)."""
    rec = _check_unit("w_rec", default_w_rec if w_rec is None else w_rec)
    sig = _check_unit("w_sig", default_w_sig if w_sig is None else w_sig)
    cos = max(0.0, 1.0 - (rec + sig)) if w_cos is None else _check_unit("w_cos", w_cos)
    total = cos + rec + sig
    if total <= 0:
        raise BadRequest("weights must not all be 0 (w_cos, w_rec, w_sig)", field="w_cos")
    return BlendWeights(w_cos=cos / total, w_rec=rec / total, w_sig=sig / total)


def space_weights(
    query_spaces: Sequence[str], given: Mapping[str, float] | None
) -> dict[str, float]:
    """Weights for the spaces the query has vectors for, summing to 1."""
    if not query_spaces:
        return {}
    if not given:
        return {space: 1.0 / len(query_spaces) for space in query_spaces}
    for space, value in given.items():
        if space not in query_spaces:
            raise BadRequest(
                f"space_weights.{space}: the query has no vector for space {space!r}",
                field="space_weights",
            )
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadRequest(
                f"space_weights.{space} must be a finite number >= 0", field="space_weights"
            )
        if not math.isfinite(value) or value < 0:
            raise BadRequest(
                f"space_weights.{space} must be a finite number >= 0", field="space_weights"
            )
    raw = {space: float(given.get(space, 0.0)) for space in query_spaces}
    total = sum(raw.values())
    if total <= 0:
        raise BadRequest(
            "space_weights must give a weight > 0 to at least one space the query has a vector for",
            field="space_weights",
        )
    return {space: value / total for space, value in raw.items()}
