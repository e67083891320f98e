"""The facet request's rules, database-free: every bad body is a 400 naming the field and
the rule; a metadata key becomes the jsonpath of the values a filter compares."""

from __future__ import annotations

from typing import Any

import pytest

from app.errors import BadRequest
from app.facets.fields import MAX_FIELDS, facet_fields
from app.facets.request import DEFAULT_FIELDS, MAX_LIMIT, parse_facet_request

pytestmark = pytest.mark.unit


def refused(body: dict[str, Any]) -> BadRequest:
    with pytest.raises(BadRequest) as caught:
        parse_facet_request(body)
    return caught.value


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"fields": []}, "fields must be an array of 1..12 field names"),
        ({"fields": "tags"}, "fields must be an array"),
        ({"fields": [f"metadata.k{n}" for n in range(MAX_FIELDS + 1)]}, "1..12"),
        ({"fields": ["title"]}, "fields[0] must be tags, src, doc_id, collection or metadata."),
        ({"fields": ["tags", "metadata."]}, "fields[1] must be tags"),
        ({"fields": ["metadata.a..b"]}, "fields[0] must be tags"),
        ({"fields": ["metadata." + ".".join(["k"] * 17)]}, "at most 16 levels"),
        ({"fields": ["tags", "src", "tags"]}, "fields[2]: tags is named twice"),
        ({"fields": [3]}, "fields must be an array"),
        ({"fields": ["metadata.a\u0000b"]}, "fields[0] must not contain NUL"),
        ({"fields": ["metadata.\ud800"]}, "fields[0] must not contain NUL (\\u0000) or unpaired"),
        ({"fields": ["metadata." + "k" * 600]}, "fields[0] must be at most 600 characters long"),
        ({"limit": 0}, f"limit must be an integer in 1..{MAX_LIMIT}"),
        ({"limit": MAX_LIMIT + 1}, f"limit must be an integer in 1..{MAX_LIMIT}"),
        ({"limit": "5"}, "limit must be an integer"),
        ({"limit": 2.5}, "limit must be an integer"),
        ({"tags_any": "json"}, "tags_any must be an array of tags"),
        ({"collection": "Bad Name"}, "collection must be a collection name"),
        ({"filter": []}, "filter must be an object"),
        ({"query": ""}, "query must be a non-empty string"),
        ({"facets": ["tags"]}, "unknown field 'facets'"),
    ],
)
def test_a_bad_body_names_the_field_and_the_rule(body, says):
    error = refused(body)
    assert error.status == 400
    assert says in error.message, error.message


def test_a_field_error_names_fields():
    assert refused({"fields": ["nope"]}).extra == {"field": "fields"}


def test_defaults_and_a_search_body_as_it_stands():
    search_body = {"query": "json", "k": 10, "offset": 20, "explain": True, "tags_any": ["a"],
                   "max_per_source": 2, "fusion": "rrf"}  # fmt: skip
    request = parse_facet_request(search_body)
    assert request.fields == DEFAULT_FIELDS and request.limit == 10
    assert request.given_filters() == {"tags_any": ["a"]}


def test_fields_and_their_metadata_paths():
    fields = facet_fields(["tags", "metadata.author.name", 'metadata.we"ird'])
    assert [f.kind.kind for f in fields] == ["tags", "metadata", "metadata"]
    assert fields[0].path is None
    scalars = ' ? (@.type() == "string" || @.type() == "number" || @.type() == "boolean")'
    assert fields[1].path == 'lax $."author"."name"[*]' + scalars
    assert fields[2].path == 'lax $."we\\"ird"[*]' + scalars  # quoted as a JSON string
    assert fields[1].key == "author.name"
    assert [f.kind.refines for f in facet_fields(["src", "doc_id", "collection", "metadata.x"])
            ] == ["src_prefix", "doc_ids", "collection", "filter"]  # fmt: skip
