"""The weight rules: how the weights a client sends become the weights a search uses.

Where each weight comes from, field by field (``w_cos``, ``w_rec``, ``w_sig``,
``space_weights``, ``recency``): the request if it gives the field, else the profile the
request names (``profile`` or its alias ``query_type``), else the ``default`` profile,
else the settings (RAG_DEFAULT_W_REC / RAG_DEFAULT_W_SIG).

Blend weights:
  * each weight is a finite number in [0, 1];
  * when no layer sets ``w_cos`` it is ``max(0, 1 - (w_rec + w_sig))``;
  * the three are then divided by their sum, so they always add up to 1
    (``w_rec=0.6, w_sig=0.6`` scores with 0, 0.5, 0.5); all zero is an error.

Space weights apply to the spaces searched (``active_spaces``, by default every space the
query has a vector for):
  * given in the request (``space_weights: {space: weight}``): each finite and >= 0, a
    space left out weighs 0, a weight for a space not searched is an error;
  * ``query_type: "custom"``: ``weights`` has one weight per registered space in
    registry order, each in [0, 1], summing to 1 within 0.01;
  * from a profile: the profile's weight for each searched space it names, 0 for one it
    does not name; a profile that names none of the searched spaces means equal weights;
  * then divided by their sum (equal weights if that sum is 0).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.errors import BadRequest

CUSTOM = "custom"
CUSTOM_TOLERANCE = 0.01


@dataclass(frozen=True)
class BlendWeights:
    w_cos: float
    w_rec: float
    w_sig: float

    def as_dict(self) -> dict[str, float]:
        return {"w_cos": self.w_cos, "w_rec": self.w_rec, "w_sig": self.w_sig}


@dataclass(frozen=True)
class WeightLayer:
    """The weights one source sets (None: not set here)."""

    w_cos: float | None = None
    w_rec: float | None = None
    w_sig: float | None = None
    space_weights: Mapping[str, float] | None = None
    recency: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class AppliedWeights:
    blend: BlendWeights
    space_weights: dict[str, float]
    recency: Mapping[str, Any] | None
    sources: dict[str, str] = field(default_factory=dict)  # field -> layer it came from


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


def _normalised(raw: Mapping[str, float], spaces: Sequence[str]) -> dict[str, float]:
    total = sum(raw.get(space, 0.0) for space in spaces)
    if total <= 0:
        return {space: 1.0 / len(spaces) for space in spaces}
    return {space: raw.get(space, 0.0) / total for space in spaces}


def space_weights(
    query_spaces: Sequence[str], given: Mapping[str, float] | None
) -> dict[str, float]:
    """Weights a request gives for the spaces it searches, summing to 1."""
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
    if sum(float(given.get(space, 0.0)) for space in query_spaces) <= 0:
        raise BadRequest(
            "space_weights must give a weight > 0 to at least one space the query has a vector for",
            field="space_weights",
        )
    return _normalised({k: float(v) for k, v in given.items()}, query_spaces)


def custom_space_weights(
    weights: Sequence[float] | None, registry: Sequence[str]
) -> dict[str, float]:
    """``query_type: custom``: one weight per registered space, in registry order."""
    if weights is None:
        raise BadRequest(
            "missing_custom_weights",
            message=f"query_type custom needs weights: one number per registered space, in "
            f"registry order ({', '.join(registry)})",
            spaces=list(registry),
        )
    total = math.fsum(weights)
    valid = (
        len(weights) == len(registry)
        and all(isinstance(w, int | float) and math.isfinite(w) and 0 <= w <= 1 for w in weights)
        and abs(total - 1) <= CUSTOM_TOLERANCE
    )
    if not valid:
        raise BadRequest(
            "invalid_weights",
            message=f"weights needs {len(registry)} numbers in [0,1] (one per registered space, "
            f"in registry order) summing to 1 within {CUSTOM_TOLERANCE}",
            sum=total,
            weights=list(weights),
            spaces=list(registry),
        )
    return dict(zip(registry, (float(w) for w in weights), strict=True))


def _profile_space_weights(
    layers: Sequence[tuple[str, WeightLayer]], spaces: Sequence[str]
) -> tuple[dict[str, float], str]:
    for name, layer in layers:
        if layer.space_weights and any(space in layer.space_weights for space in spaces):
            return _normalised(layer.space_weights, spaces), name
    return {space: 1.0 / len(spaces) for space in spaces}, "equal"


def _first(layers: Sequence[tuple[str, WeightLayer]], attribute: str) -> tuple[Any, str | None]:
    for name, layer in layers:
        value = getattr(layer, attribute)
        if value is not None:
            return value, name
    return None, None


def apply_layers(
    request: WeightLayer,
    profiles: Sequence[tuple[str, WeightLayer]],
    spaces: Sequence[str],
    *,
    default_w_rec: float,
    default_w_sig: float,
) -> AppliedWeights:
    """The weights a search uses: request > profiles (in order) > settings, field by field.

    ``request.space_weights`` is validated as the request's own (strict); a profile's
    only has to name a searched space to count.
    """
    layers = [("request", request), *profiles]
    sources: dict[str, str] = {}
    values: dict[str, float | None] = {}
    for attribute in ("w_cos", "w_rec", "w_sig"):
        value, source = _first(layers, attribute)
        values[attribute] = value
        sources[attribute] = source or ("rule" if attribute == "w_cos" else "settings")
    blend = blend_weights(
        values["w_rec"], values["w_sig"], values["w_cos"],
        default_w_rec=default_w_rec, default_w_sig=default_w_sig,
    )  # fmt: skip
    if request.space_weights is not None:
        spaces_applied, sources["space_weights"] = (
            space_weights(spaces, request.space_weights),
            "request",
        )
    elif spaces:
        spaces_applied, sources["space_weights"] = _profile_space_weights(profiles, spaces)
    else:
        spaces_applied = {}
    recency, source = _first(layers, "recency")
    sources["recency"] = source or "settings"
    return AppliedWeights(blend, spaces_applied, recency, sources)
