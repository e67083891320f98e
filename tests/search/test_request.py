"""What a search body may hold: each field's rule, checked before anything is planned."""

from __future__ import annotations

import pytest

from app.errors import BadRequest
from app.recency import Recency
from app.search.request import parse_search_request

pytestmark = pytest.mark.unit
VECTOR = [1.0, 0.0]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"w_lex": 1.5}, "w_lex must be a finite number in [0,1]"),
        ({"w_rec": -0.1}, "w_rec must be a finite number in [0,1]"),
        ({"w_cos": "0.5"}, "w_cos must be a finite number in [0,1]"),
        ({"hybrid_vector_weight": -1.0}, "hybrid_vector_weight must be a finite number in [0,1]"),
        ({"space_weights": {"default": -1}},
         "space_weights.default must be a finite number >= 0 keyed by space name"),
        ({"recency": {"function": "exponential", "half_life_days": 0}},
         "recency.half_life_days must be a number of days in 1e-6..1e9"),
        ({"recency": {"function": "cubic"}},
         "recency.function must be inverse, exponential, gaussian or linear"),
        ({"recency": {"function": "gaussian"}}, "scale_days is required for gaussian decay"),
        # accepted, they changed nothing
        ({"recency": {"function": "inverse", "half_life_days": 5}},
         "recency: half_life_days does not apply to inverse decay (it takes scale_days)"),
        ({"recency": {"function": "exponential", "half_life_days": 5, "scale_days": 2}},
         "recency: scale_days does not apply to exponential decay (it takes half_life_days)"),
        ({"k": 51}, "k must be an integer in 1..50"),
        ({"no_such_option": 1}, "unknown field 'no_such_option'"),
    ],
)  # fmt: skip
def test_a_field_breaking_its_rule_is_named(body, message):
    with pytest.raises(BadRequest) as caught:
        parse_search_request({"embedding": VECTOR, **body})
    assert message in caught.value.message


def test_a_profile_stored_before_the_rule_keeps_searching():
    # a recency parameter its function does not take counted for nothing: it still does
    stored = {"function": "inverse", "half_life_days": 5.0, "scale_days": 2.0}
    assert Recency.from_stored(stored) == Recency(function="inverse", scale_days=2.0)


def test_rrf_k_is_read_only_under_fusion_rrf():
    with pytest.raises(BadRequest) as caught:
        parse_search_request({"embedding": VECTOR, "rrf_k": 10}).refuse_options_unread()
    assert (caught.value.message, caught.value.extra) == (
        "rrf_k is read only with fusion: rrf", {"field": "rrf_k"})  # fmt: skip
    parse_search_request(
        {"embedding": VECTOR, "rrf_k": 10, "fusion": "rrf"}
    ).refuse_options_unread()


def test_an_option_without_a_rule_of_its_own_names_the_field_and_the_constraint():
    # a new option needs no message of its own: the constraint is named with its path
    with pytest.raises(BadRequest) as caught:
        parse_search_request({"embedding": VECTOR, "rrf_k": 0})
    assert caught.value.message.startswith("rrf_k")
