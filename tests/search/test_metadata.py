"""The metadata filter compiler (app/search/metadata.py), without a database: the jsonpath
it writes, its limits and their messages, and the conditions an explanation lists. What
the compiled predicates select is checked against the oracle in
tests/search/test_metadata_filters.py."""

from __future__ import annotations

import pytest

from app.errors import BadRequest
from app.search.metadata import (
    MAX_BRANCHES,
    MAX_COMPARISONS,
    MAX_KEY_LEVELS,
    MAX_LIST,
    MAX_NESTING,
    MAX_STRING,
    OPERATORS,
    compile_filter,
    conditions,
    describe,
)

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("condition", "path"),
    [
        ({"year": 2024}, '(exists($."year" ? (@ == 2024)))'),
        ({"a.b": {"$gte": 1, "$lt": 5}},
         '((exists($."a"."b" ? (@ >= 1)) && exists($."a"."b" ? (@ < 5))))'),
        ({"lang": {"$in": ["en", "fr"]}}, '((exists($."lang" ? (@ == "en" || @ == "fr"))))'),
        ({"lang": {"$nin": ["en"]}}, '((!exists($."lang" ? (@ == "en"))))'),
        ({"x": {"$exists": False}}, '((!exists($."x")))'),
        ({"$or": [{"a": 1}, {"b": None}]},
         '(((exists($."a" ? (@ == 1))) || (exists($."b" ? (@ == null)))))'),
        ({"$not": {"a": True}}, '(!(exists($."a" ? (@ == true))))'),
        ({"a": {"$not": {"$gt": 1}}}, '((!(exists($."a" ? (@ > 1)))))'),
        ({"q\"uote": "x\\y"}, '(exists($."q\\"uote" ? (@ == "x\\\\y")))'),
        ({}, "(1 == 1)"),
        ({"a": {"$in": []}}, "(((1 == 0)))"),
        ({"$or": []}, "((1 == 0))"),
    ],
)  # fmt: skip
def test_the_compiled_predicate(condition, path):
    assert compile_filter(condition) == path


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ({"a": {"$near": 1}}, 'filter.a: unknown operator "$near" (known: $eq, $ne'),
        ({"$xor": []}, 'filter: unknown operator "$xor" (known: $and, $or, $nor, $not, or a key)'),
        ({"a": {"b": 1}}, 'reach into objects with a dotted key ("a.b")'),
        ({"a": {}}, "filter.a: an empty condition"),
        ({"a": {"$in": "x"}}, f"filter.a.$in must be an array of at most {MAX_LIST} values"),
        ({"a": {"$in": list(range(MAX_LIST + 1))}}, f"at most {MAX_LIST} values"),
        ({"a": {"$exists": 1}}, "filter.a.$exists must be true or false"),
        ({"a": [1]}, "filter.a: a metadata value must be a string, number, boolean or null"),
        ({"a": "x" * (MAX_STRING + 1)}, f"filter.a: at most {MAX_STRING} characters"),
        ({".".join("k" * (MAX_KEY_LEVELS + 1)): 1}, f"at most {MAX_KEY_LEVELS} levels"),
        ({"a..b": 1}, 'filter.a..b: "a..b" is not a metadata key'),
        ({"$or": [{"a": 1}] * (MAX_BRANCHES + 1)}, f"at most {MAX_BRANCHES} filter objects"),
        ({"$or": "x"}, "filter.$or must be an array"),
        ({"$not": 1}, "filter.$not must be an object"),
        ({"a": {"$not": 1}}, "filter.a.$not must be an object of operators other than $not"),
        ({"a": {"$not": {}}}, "filter.a.$not must be an object of operators"),
        ({"a": {"$not": {"$not": {"$gt": 1}}}}, "filter.a.$not must be an object of operators"),
        ({"a": {"$not": {"b": 1}}}, "filter.a.$not must be an object of operators"),
    ],
)  # fmt: skip
def test_a_filter_breaking_a_rule_is_a_400_naming_it(condition, message):
    with pytest.raises(BadRequest) as caught:
        compile_filter(condition)
    assert message in caught.value.message
    assert caught.value.extra["field"] == "filter"


def test_nesting_is_bounded():
    deep: dict = {"a": 1}
    for _ in range(MAX_NESTING):
        deep = {"$not": deep}
    with pytest.raises(BadRequest, match=f"nested deeper than {MAX_NESTING} levels"):
        compile_filter(deep)


def test_the_whole_filter_compares_a_bounded_number_of_values():
    # each list alone is within its limit; together they pass the filter's budget
    lists = MAX_COMPARISONS // MAX_LIST + 1
    costly = {"$or": [{f"k{n}": {"$in": list(range(MAX_LIST))}} for n in range(lists)]}
    with pytest.raises(BadRequest) as caught:
        compile_filter(costly)
    assert f"compares more than {MAX_COMPARISONS} values in all" in caught.value.message
    compile_filter({"k": {"$nin": list(range(MAX_LIST))}})  # one full list is fine


def test_an_explanation_lists_each_comparison_with_where_it_sits():
    condition = {"year": {"$gte": 2020}, "$or": [{"lang": {"$in": ["en", "fr"]}}, {"x": 1}]}
    found = list(conditions(condition))
    assert [c.label for c in found] == [
        "filter.year $gte 2020",
        'filter.$or[0].lang $in ["en", "fr"]',
        "filter.$or[1].x = 1",
    ]
    assert found[0].path == '(exists($."year" ? (@ >= 2020)))'


def test_the_description_names_every_operator():
    text = describe()
    assert all(op.name in text for op in OPERATORS)
