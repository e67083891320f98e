"""The weight rule, as a table of inputs and the weights a search then uses."""

from __future__ import annotations

import math

import pytest

from app.errors import BadRequest
from app.weights import blend_weights, space_weights

pytestmark = pytest.mark.unit

DEFAULTS = {"default_w_rec": 0.1, "default_w_sig": 0.1}


@pytest.mark.parametrize(
    ("w_rec", "w_sig", "w_cos", "expected"),
    [
        (None, None, None, (0.8, 0.1, 0.1)),  # server defaults
        (0.1, 0.1, None, (0.8, 0.1, 0.1)),
        (0.0, 0.0, None, (1.0, 0.0, 0.0)),
        (0.3, 0.2, None, (0.5, 0.3, 0.2)),
        (0.6, 0.6, None, (0.0, 0.5, 0.5)),  # w_cos = max(0, 1 - 1.2) = 0, then normalised
        (1.0, 0.0, None, (0.0, 1.0, 0.0)),
        (1.0, 1.0, None, (0.0, 0.5, 0.5)),
        (0.2, 0.2, 0.6, (0.6, 0.2, 0.2)),
        (0.2, 0.2, 0.2, (1 / 3, 1 / 3, 1 / 3)),  # explicit w_cos, normalised
        (0.5, 0.5, 1.0, (0.5, 0.25, 0.25)),
        (0.0, 0.0, 0.3, (1.0, 0.0, 0.0)),
        (0.25, None, None, (0.65, 0.25, 0.1)),  # w_sig from the server default
    ],
)
def test_blend_weight_table(w_rec, w_sig, w_cos, expected):
    weights = blend_weights(w_rec, w_sig, w_cos, **DEFAULTS)
    got = (weights.w_cos, weights.w_rec, weights.w_sig)
    assert got == pytest.approx(expected)
    assert math.isclose(sum(got), 1.0)


def test_defaults_come_from_settings():
    weights = blend_weights(None, None, **{"default_w_rec": 0.3, "default_w_sig": 0.2})
    assert (weights.w_cos, weights.w_rec, weights.w_sig) == pytest.approx((0.5, 0.3, 0.2))


@pytest.mark.parametrize(
    ("w_rec", "w_sig", "w_cos", "message"),
    [
        (0.0, 0.0, 0.0, "weights must not all be 0 (w_cos, w_rec, w_sig)"),
    ],
)
def test_bad_blend_weights(w_rec, w_sig, w_cos, message):
    with pytest.raises(BadRequest) as caught:
        blend_weights(w_rec, w_sig, w_cos, **DEFAULTS)
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("spaces", "given", "expected"),
    [
        (["a"], None, {"a": 1.0}),
        (["a", "b"], None, {"a": 0.5, "b": 0.5}),
        (["a", "b"], {"a": 3, "b": 1}, {"a": 0.75, "b": 0.25}),
        (["a", "b"], {"a": 1}, {"a": 1.0, "b": 0.0}),
        (["a", "b", "c"], {"a": 0.2, "b": 0.2, "c": 0.6}, {"a": 0.2, "b": 0.2, "c": 0.6}),
        # the sum overflowed to inf and every space weighed 0 (a 200 ranked by nothing)
        (["a", "b"], {"a": 1e308, "b": 1e308}, {"a": 0.5, "b": 0.5}),
    ],
)
def test_space_weight_table(spaces, given, expected):
    assert space_weights(spaces, given) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"a": 0, "b": 0}, "space_weights must give a weight > 0 to at least one space"),
        ({"zzz": 1}, "space_weights.zzz: the query has no vector for space 'zzz'"),
    ],
)
def test_bad_space_weights(given, message):
    with pytest.raises(BadRequest) as caught:
        space_weights(["a", "b"], given)
    assert caught.value.message.startswith(message)
