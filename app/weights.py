"""The weight rules: how the weights a client sends become the weights a search uses.

Where each weight comes from, field by field (``w_cos``, ``w_lex``, ``w_rec``, ``w_sig``,
``hybrid_vector_weight``, ``space_weights``, ``recency``): the request if it gives the
field, else the profile the request names (``profile`` or its alias ``query_type``; with
``auto``, the query's classification), else the ``default`` profile, else the settings
(RAG_DEFAULT_W_REC, RAG_DEFAULT_W_SIG, RAG_HYBRID_VECTOR_WEIGHT).

Blend weights (the score is w_cos*sem + w_lex*lex + w_rec*rec + w_sig*sig):
  * each weight is a finite number in [0, 1];
  * a query without text has no keyword part (``w_lex`` is 0 and is not reported); a
    query without vectors has no semantic part (``w_cos`` is 0);
  * when no layer sets ``w_lex``: the relevance weight ``r`` is ``w_cos`` if a layer sets
    it, else ``max(0, 1 - (w_rec + w_sig))``; a query with text and vectors splits it by
    the vector share ``h`` (``hybrid_vector_weight``, 0 = keywords only, 1 = vectors only):
    ``w_cos = r * h``, ``w_lex = r * (1 - h)``; with text only, ``w_lex = r``;
  * when a layer sets ``w_lex``: ``w_cos`` is the one set, else
    ``max(0, 1 - (w_lex + w_rec + w_sig))``;
  * the weights are then divided by their sum, so they always add up to 1
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
from dataclasses import dataclass
from typing import Any

from app.errors import BadRequest

CUSTOM = "custom"
AUTO = "auto"  # classify the query text (app/classify.py)
CUSTOM_TOLERANCE = 0.01
DISPLAY_DIGITS = 9  # weights in answers: float noise of products and sums removed


@dataclass(frozen=True)
class BlendWeights:
    w_cos: float
    w_rec: float
    w_sig: float
    w_lex: float | None = None  # None: the query has no text, so no keyword part

    @property
    def lex(self) -> float:
        return self.w_lex or 0.0

    def as_dict(self) -> dict[str, float]:
        """The weights as answered: rounded, so that 0.6 * 0.4 reads 0.24, not
        0.24000000000000002 (the ranking uses the unrounded values)."""
        weights = {"w_cos": self.w_cos, "w_rec": self.w_rec, "w_sig": self.w_sig}
        if self.w_lex is not None:
            weights["w_lex"] = self.w_lex
        return {name: round(value, DISPLAY_DIGITS) for name, value in weights.items()}


@dataclass(frozen=True)
class WeightDefaults:
    """The settings' weights, used where no layer sets one."""

    w_rec: float
    w_sig: float
    vector_share: float = 1.0  # RAG_HYBRID_VECTOR_WEIGHT


@dataclass(frozen=True)
class QueryParts:
    """What a query can be scored on."""

    semantic: bool = True  # it has vectors
    lexical: bool = False  # it has text


@dataclass(frozen=True)
class WeightLayer:
    """The weights one source sets (None: not set here)."""

    w_cos: float | None = None
    w_rec: float | None = None
    w_sig: float | None = None
    w_lex: float | None = None
    hybrid_vector_weight: float | None = None
    space_weights: Mapping[str, float] | None = None
    recency: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class AppliedWeights:
    blend: BlendWeights
    space_weights: dict[str, float]
    recency: Mapping[str, Any] | None


BLEND_WEIGHT_NAMES = ("w_cos", "w_lex", "w_rec", "w_sig", "hybrid_vector_weight")


def unit_weight_rule(name: str) -> str:
    """The message for a weight that is not a finite number in [0, 1]."""
    return f"{name} must be a finite number in [0,1]"


# Validation messages for the blend weights, shared by searches and profiles.
BLEND_WEIGHT_RULES = {name: unit_weight_rule(name) for name in BLEND_WEIGHT_NAMES}


class NoWeight(BadRequest):
    """Every weight of a query is 0: nothing would rank."""


def _relevance(
    cos: float | None, lex: float | None, rec: float, sig: float, share: float, parts: QueryParts
) -> tuple[float, float]:
    """w_cos and w_lex before normalisation."""
    if not parts.lexical:
        return (max(0.0, 1.0 - (rec + sig)) if cos is None else cos), 0.0
    if lex is not None:
        if not parts.semantic:
            return 0.0, lex
        return (max(0.0, 1.0 - (lex + rec + sig)) if cos is None else cos), lex
    relevance = max(0.0, 1.0 - (rec + sig)) if cos is None else cos
    share = share if parts.semantic else 0.0
    return relevance * share, relevance * (1.0 - share)


def blend_weights(
    w_rec: float | None,
    w_sig: float | None,
    w_cos: float | None = None,
    *,
    default_w_rec: float,
    default_w_sig: float,
    w_lex: float | None = None,
    vector_share: float = 1.0,
    parts: QueryParts = QueryParts(),
) -> BlendWeights:
    """Apply the blend-weight rule (see the module docstring). The weights come from
    validated requests, profiles and settings: each is a finite number in [0, 1]."""
    rec = default_w_rec if w_rec is None else w_rec
    sig = default_w_sig if w_sig is None else w_sig
    cos, lex = _relevance(w_cos, w_lex, rec, sig, vector_share, parts)
    if not parts.semantic:
        cos = 0.0
    total = cos + lex + rec + sig
    if total <= 0:
        names = "w_cos, w_lex, w_rec, w_sig" if parts.lexical else "w_cos, w_rec, w_sig"
        raise NoWeight(f"weights must not all be 0 ({names})", field="w_cos")
    return BlendWeights(
        w_cos=cos / total, w_rec=rec / total, w_sig=sig / total,
        w_lex=lex / total if parts.lexical else None,
    )  # fmt: skip


def _normalised(raw: Mapping[str, float], spaces: Sequence[str]) -> dict[str, float]:
    # over the largest first: finite weights as large as 1e308 sum without overflowing
    largest = max((raw.get(space, 0.0) for space in spaces), default=0.0)
    if largest <= 0:
        return {space: 1.0 / len(spaces) for space in spaces}
    scaled = {space: raw.get(space, 0.0) / largest for space in spaces}
    total = sum(scaled.values())
    return {space: weight / total for space, weight in scaled.items()}


def space_weights(
    query_spaces: Sequence[str], given: Mapping[str, float] | None
) -> dict[str, float]:
    """Weights a request gives for the spaces it searches (each validated: finite and
    >= 0), summing to 1."""
    if not query_spaces:
        return {}
    if not given:
        return {space: 1.0 / len(query_spaces) for space in query_spaces}
    for space in given:
        if space not in query_spaces:
            raise BadRequest(
                f"space_weights.{space}: the query has no vector for space {space!r}",
                field="space_weights",
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
    try:
        total = math.fsum(weights)
    except OverflowError:  # 1e308 + 1e308: said as null, as an infinite sum is
        total = math.inf
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
) -> dict[str, float]:
    for _name, layer in layers:
        if layer.space_weights and any(space in layer.space_weights for space in spaces):
            return _normalised(layer.space_weights, spaces)
    return {space: 1.0 / len(spaces) for space in spaces}


def _first(layers: Sequence[tuple[str, WeightLayer]], attribute: str) -> Any:
    """The value of the first layer that sets ``attribute``, or None."""
    found = _set_by(layers, attribute)
    return found[1] if found else None


def _set_by(layers: Sequence[tuple[str, WeightLayer]], attribute: str) -> tuple[str, Any] | None:
    """(layer, value) of the first layer that sets ``attribute``, or None."""
    for name, layer in layers:
        value = getattr(layer, attribute)
        if value is not None:
            return name, value
    return None


def _zeros_from(
    layers: Sequence[tuple[str, WeightLayer]], parts: QueryParts, defaults: WeightDefaults
) -> tuple[str, str | None]:
    """Why each weight of a query counted 0: "w_cos (no query vector); w_rec 0 (profile
    kw); w_sig 0 (the settings)"; and the first of them the request itself set, if any."""
    said: list[str] = []
    field: str | None = None
    for name in (
        ("w_cos", "w_lex", "w_rec", "w_sig") if parts.lexical else ("w_cos", "w_rec", "w_sig")
    ):
        found = _set_by(layers, name)
        if name == "w_cos" and not parts.semantic:
            said.append("w_cos (no query vector)")
        elif found and found[1] == 0:
            layer = found[0]
            said.append(f"{name} 0 ({'the request' if layer == 'request' else f'profile {layer}'})")
            field = field or (name if layer == "request" else None)
        elif not found and name in ("w_rec", "w_sig") and getattr(defaults, name) == 0:
            said.append(f"{name} 0 (the settings, RAG_DEFAULT_{name.upper()})")
    return "; ".join(said), field


def _check_parts(request: WeightLayer, parts: QueryParts) -> None:
    """A request may not weigh a part its query does not have."""
    if not parts.lexical and request.w_lex:
        raise BadRequest("w_lex needs query text (the query field)", field="w_lex")
    if not parts.semantic and request.w_cos:
        raise BadRequest(
            "w_cos needs a query vector (embedding or embeddings), or a server embedder",
            field="w_cos",
        )


def apply_layers(
    request: WeightLayer,
    profiles: Sequence[tuple[str, WeightLayer]],
    spaces: Sequence[str],
    *,
    defaults: WeightDefaults,
    parts: QueryParts = QueryParts(),
) -> AppliedWeights:
    """The weights a search uses: request > profiles (in order) > settings, field by field.

    ``request.space_weights`` is validated as the request's own (strict); a profile's
    only has to name a searched space to count.
    """
    _check_parts(request, parts)
    layers = [("request", request), *profiles]
    values: dict[str, float | None] = {name: _first(layers, name) for name in BLEND_WEIGHT_NAMES}
    if not parts.lexical:
        values["w_lex"] = None
    share = values["hybrid_vector_weight"]
    try:
        blend = blend_weights(
            values["w_rec"], values["w_sig"], values["w_cos"],
            default_w_rec=defaults.w_rec, default_w_sig=defaults.w_sig, w_lex=values["w_lex"],
            vector_share=defaults.vector_share if share is None else share, parts=parts,
        )  # fmt: skip
    except NoWeight as error:
        why, field = _zeros_from(layers, parts, defaults)
        named = {"field": field} if field else {}  # a field the request sent, or none
        raise NoWeight(f"{error.message}: {why}", **named) from None
    if request.space_weights is not None:
        spaces_applied = space_weights(spaces, request.space_weights)
    elif spaces:
        spaces_applied = _profile_space_weights(profiles, spaces)
    else:
        spaces_applied = {}
    return AppliedWeights(blend, spaces_applied, _first(layers, "recency"))
