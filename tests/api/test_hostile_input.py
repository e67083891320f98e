"""Every string field of every route, and every path and query parameter, given hostile
values: NUL, unpaired surrogates, control characters, huge strings, SQL and LIKE
metacharacters, path tricks. No answer is a 5xx; what is accepted reads back unchanged."""

from __future__ import annotations

import copy
import itertools
import json
import secrets
from typing import Any
from urllib.parse import quote

import pytest

from app.validation import METADATA_MAX_DEPTH

HOSTILE = {
    "nul": "a\x00b",
    "surrogate": "\ud800x",
    "control": "bell\x07\x1b[31m",
    "huge": "w" * 300_000,
    "sql": "'; DROP TABLE rag.chunks; --",
    "like": "%_\\%",
    "path": "../../etc/passwd",
    "rtl": "\u202eevil\u202c",
    "spaces": "   ",
    "empty": "",
    "emoji": "🦊 ragsearch",
}
JSON_TYPE = {"Content-Type": "application/json"}
DIMS = 384
VECTOR = [0.05] * DIMS

SEARCH = {
    "embedding": VECTOR, "query": "hostile input", "k": 3, "src_prefix": "https://x",
    "doc_ids": ["d"], "tags_any": ["t"], "tags_all": ["t"], "collection": "default",
    "filter": {"lang": "en"}, "created_after": "2020-01-01T00:00:00Z",
}  # fmt: skip
SEARCH_FIELDS = [
    ("query",), ("src_prefix",), ("doc_ids", 0), ("tags_any", 0), ("tags_all", 0),
    ("collection",), ("profile",), ("query_type",), ("goal",), ("active_spaces", 0),
    ("embedding",), ("created_after",), ("filter", "lang"), ("filter", "$in"),
]  # fmt: skip
DOCUMENT = {
    "doc_id": "hostile-doc", "src": "https://x/doc", "title": "t", "category": "learning",
    "tags": ["a"], "metadata": {"k": "v"}, "collection": "default",
    "chunks": [{"chunk_id": "hostile-doc-0", "chunk": "some text", "model": "m",
                "tags": ["b"], "metadata": {"k2": "v2"}, "created_at": "2025-01-01T00:00:00Z",
                "embedding": VECTOR}],
}  # fmt: skip
DOCUMENT_FIELDS = [
    ("doc_id",), ("src",), ("title",), ("category",), ("tags", 0), ("metadata", "k"),
    ("collection",), ("chunks", 0, "chunk_id"), ("chunks", 0, "chunk"),
    ("chunks", 0, "model"), ("chunks", 0, "tags", 0), ("chunks", 0, "metadata", "k2"),
    ("chunks", 0, "created_at"), ("chunks", 0, "embedding"),
]  # fmt: skip
BODIES: list[tuple[str, str, dict[str, Any], list[tuple[Any, ...]]]] = [
    ("post", "/api/rag/search", SEARCH, SEARCH_FIELDS),
    ("post", "/api/rag/explain", {**SEARCH, "chunk_id": "c"}, [*SEARCH_FIELDS, ("chunk_id",)]),
    ("post", "/api/rag/search/space/default", {"query_embedding": VECTOR, "src_prefix": "x"},
     [("query_embedding",), ("src_prefix",), ("collection",)]),
    ("post", "/api/rag/search/purpose", {"purpose_vector": VECTOR, "space": "default"},
     [("purpose_vector",), ("space",), ("goal",)]),
    ("post", "/api/rag/documents", DOCUMENT, DOCUMENT_FIELDS),
    ("post", "/api/rag/signals", {"updates": [{"chunk_id": "c", "add_volume": 1}]},
     [("updates", 0, "chunk_id"), ("collection",)]),
    ("post", "/api/rag/spaces", {"name": "hostile_space", "dims": 4, "model": "m"},
     [("name",), ("model",), ("description",)]),
    ("put", "/api/rag/profiles/hostile_profile",
     {"description": "d", "space_weights": {"default": 1}, "recency": {"function": "inverse"}},
     [("description",), ("recency", "function")]),
    ("put", "/api/rag/goals/hostile_goal", {"embedding": VECTOR, "description": "d"},
     [("description",), ("embedding",)]),
    ("post", "/api/rag/collections", {"name": "hostile-coll", "description": "d"},
     [("name",), ("description",)]),
]  # fmt: skip
PATHS = [
    ("get", "/api/rag/documents/{}"), ("delete", "/api/rag/documents/{}"),
    ("get", "/api/rag/profiles/{}"), ("get", "/api/rag/profiles/{}/versions"),
    ("delete", "/api/rag/profiles/{}"), ("get", "/api/rag/goals/{}"),
    ("delete", "/api/rag/goals/{}"), ("delete", "/api/rag/spaces/{}"),
    ("get", "/api/rag/collections/{}"), ("delete", "/api/rag/collections/{}"),
]  # fmt: skip


def _nested(levels: int) -> dict[str, Any]:
    """{"x": [{"x": [...]}]}: `levels` objects and arrays, the outer object included."""
    value: Any = 1
    for level in range(levels - 1):
        value = [value] if level % 2 == 0 else {"x": value}
    return {"x": value}


QUERIES = [("get", "/api/rag/stats?collection={}"), ("get", "/api/rag/documents/x?collection={}")]


def _with(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A copy of body with the value at path replaced (or a key renamed, for "$...")."""
    changed = copy.deepcopy(body)
    target: Any = changed
    for step, after in itertools.pairwise(path):
        if isinstance(target, dict) and step not in target:
            target[step] = [None] if isinstance(after, int) else {}
        target = target[step]
    last = path[-1]
    if isinstance(last, str) and last.startswith("$"):
        target[value] = "x"  # a hostile key
    else:
        target[last] = value
    return changed


def _send(client: Any, method: str, url: str, body: dict[str, Any]) -> Any:
    """JSON as a hostile client may write it: \\u escapes for lone surrogates, NaN."""
    content = json.dumps(body, allow_nan=True)  # ensure_ascii escapes lone surrogates
    return client.request(method, url, content=content, headers=JSON_TYPE)


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_no_hostile_body_value_gets_a_server_error(client, kind):
    value = HOSTILE[kind]
    for method, url, body, fields in BODIES:
        for field in fields:
            r = _send(client, method, url, _with(body, field, value))
            assert r.status_code < 500, (method, url, field, kind, r.text[:300])
            assert "Traceback" not in r.text


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_no_hostile_path_or_query_value_gets_a_server_error(client, kind):
    raw = HOSTILE[kind][:20_000]  # a URL stays under the client's 64 KiB limit
    value = quote(raw.encode("utf-8", "surrogatepass"), safe="")
    for method, template in [*PATHS, *QUERIES]:
        r = client.request(method, template.format(value))
        assert r.status_code < 500, (method, template, kind, r.text[:300])


def test_what_is_accepted_reads_back_unchanged(client):
    awkward = {"src": HOSTILE["like"] + HOSTILE["sql"], "title": HOSTILE["rtl"],
               "doc_id": "a/b ?#%&=+ " + HOSTILE["emoji"]}  # fmt: skip
    body = {**copy.deepcopy(DOCUMENT), **awkward, "metadata": {"sql": HOSTILE["sql"]}}
    body["chunks"][0]["chunk_id"] = "awkward-0"
    assert client.post("/api/rag/documents", json=body).status_code == 200
    path = "/api/rag/documents/" + quote(body["doc_id"], safe="")
    read = client.get(path)
    assert read.status_code == 200
    stored = read.json()
    assert (stored["doc_id"], stored["src"], stored["title"]) == (
        body["doc_id"], body["src"], body["title"],
    )  # fmt: skip
    assert stored["metadata"] == {"sql": HOSTILE["sql"]}
    found = client.post(
        "/api/rag/search", json={"embedding": VECTOR, "src_prefix": HOSTILE["like"]}
    )
    assert found.status_code == 200
    assert [r["doc_id"] for r in found.json()["rows"]] == [body["doc_id"]]
    assert client.delete(path).status_code == 200


def test_a_chunk_past_the_keyword_index_limits_is_stored_and_searchable(client):
    # more distinct words than a tsvector holds, in fewer characters than a chunk may hold
    words = " ".join(f"w{i}x" for i in range(120_000))
    body = copy.deepcopy(DOCUMENT)
    body["doc_id"] = "long-words"
    body["chunks"][0].update(chunk_id="long-words-0", chunk=words + " zebraword")
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == 200, r.text
    found = client.post("/api/rag/search", json={"query": "w17x", "w_rec": 0, "w_sig": 0})
    assert [row["chunk_id"] for row in found.json()["rows"]] == ["long-words-0"]
    # beyond the first 100,000 characters of title + text, words are not indexed
    assert client.post("/api/rag/search", json={"query": "zebraword"}).json()["rows"] == []


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ({"n": 2**64}, "beyond 64 bits"),
        ({"n": float("nan")}, "not finite"),
        (_nested(METADATA_MAX_DEPTH + 1), "nested deeper"),
    ],
)
def test_metadata_that_would_not_read_back_is_refused(client, value, rule):
    body = copy.deepcopy(DOCUMENT)
    body["metadata"] = value
    r = _send(client, "post", "/api/rag/documents", body)
    assert r.status_code == 400 and rule in r.json()["error"], r.text


def test_metadata_at_the_depth_limit_is_stored_and_read_back(client):
    body = copy.deepcopy(DOCUMENT)
    body.update(doc_id="deep-meta", metadata=_nested(METADATA_MAX_DEPTH))
    body["chunks"][0]["chunk_id"] = "deep-meta-0"
    assert client.post("/api/rag/documents", json=body).status_code == 200
    assert client.get("/api/rag/documents/deep-meta").json()["metadata"] == body["metadata"]


@pytest.mark.parametrize(
    ("created_at", "status"),
    [("0001-01-01T00:00:00+14:00", 400), ("9999-12-31T23:00:00-05:00", 400),
     ("0001-01-03T00:00:00Z", 200), ("0001-01-02T00:00:00Z", 200),
     ("9999-12-30T00:00:00Z", 200), ("0001-01-01T23:59:59Z", 400),
     ("9999-12-30T00:00:01Z", 400)],
)  # fmt: skip
def test_timestamps_must_stay_readable_in_utc(client, created_at, status):
    body = copy.deepcopy(DOCUMENT)
    doc_id = f"time-{created_at}"
    body["doc_id"] = doc_id
    body["chunks"][0].update(chunk_id=f"{doc_id}-0", created_at=created_at)
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == status, r.text
    if status == 200:
        stored = client.get(f"/api/rag/documents/{doc_id}")
        assert stored.status_code == 200
        assert stored.json()["chunks"][0]["created_at"].startswith(created_at[:19])
    else:  # the message gives the range it holds
        assert "0001-01-02T00:00:00Z..9999-12-30T00:00:00Z" in r.json()["error"], r.text


def test_profile_scales_that_would_break_searches_are_refused(client):
    r = client.put("/api/rag/profiles/tiny_half_life", json=_half_life(1e-300))
    assert r.status_code == 400 and "half_life_days" in r.json()["error"]
    ok = client.put("/api/rag/profiles/short_half_life", json=_half_life(1e-6))
    assert ok.status_code == 200
    search = client.post(
        "/api/rag/search", json={"embedding": VECTOR, "profile": "short_half_life"}
    )
    assert search.status_code == 200, search.text


def _half_life(days: float) -> dict[str, Any]:
    return {"recency": {"function": "exponential", "half_life_days": days}}


def test_an_overlong_chunk_is_refused_with_its_length(client):
    body = copy.deepcopy(DOCUMENT)
    body["chunks"][0]["chunk"] = "x" * 1_000_001
    r = client.post("/api/rag/documents", json=body)
    assert r.status_code == 400
    assert (
        "chunks[0].chunk must be at most 1,000,000 characters long (got 1,000,001)"
        in (r.json()["error"])
    )


@pytest.mark.parametrize(
    ("src", "status"),
    [(secrets.token_urlsafe(1_875), 400),  # 2,500 characters that do not compress
     ("€" * 667, 400),  # 2,001 bytes
     (secrets.token_urlsafe(1_500), 200)],  # 2,000: fits the index
)  # fmt: skip
def test_a_src_past_its_index_is_refused_by_name(client, run_id, src, status):
    """Before, a src of 2,500 random characters (4,096 allowed) failed in the src index
    (a row too big) and answered 503 "the database connection was lost; retry shortly"."""
    doc = {"doc_id": f"{run_id}-src", "src": src, "chunks": [{"chunk": "x", "embedding": VECTOR}]}
    r = client.post("/api/rag/documents", json=doc)
    assert r.status_code == status, r.text
    if status == 400:
        assert r.json()["error"].startswith("src must be at most 2,000 "), r.text
        assert client.get(f"/api/rag/documents/{run_id}-src").status_code == 404
    else:
        assert client.get(f"/api/rag/documents/{run_id}-src").json()["src"] == src


@pytest.mark.parametrize("control", ["\x85", "\x9b", "\x7f"])
def test_an_id_with_a_c1_control_is_refused(client, run_id, control):
    """NEL (U+0085) ends a line in some logs and terminals; CSI (U+009B) starts an escape."""
    doc = {"doc_id": f"{run_id}{control}x", "chunks": [{"chunk": "x", "embedding": VECTOR}]}
    r = client.post("/api/rag/documents", json=doc)
    assert r.status_code == 400 and r.json()["error"].startswith("doc_id must not contain control")


@pytest.mark.parametrize("tiny", [1e-50, 1e-20, -1e-30, -1e-20])
def test_a_number_too_small_for_its_float_is_stored_as_0(client, run_id, tiny):
    """Before, 1e-50 as a signal, or 1e-20 as both volume and confidence (their product),
    underflowed a 4-byte float: 400 "a number is out of the range it is stored in", naming
    no field."""
    doc_id = f"{run_id}-tiny"
    chunk = {"chunk": "x", "embedding": VECTOR, "chunk_id": f"{doc_id}-0"}
    small = {"volume": tiny, "confidence": tiny, "signal": tiny}  # -1e-20 too: it is 0
    r = client.post("/api/rag/documents", json={"doc_id": doc_id, "chunks": [{**chunk, **small}]})
    assert r.status_code == 200, r.text
    for fields in ({"volume": tiny, "confidence": tiny}, {"add_volume": tiny, "signal": tiny}):
        update = {"chunk_id": f"{doc_id}-0", **fields}
        r = client.post("/api/rag/signals", json={"updates": [update]})
        assert r.status_code == 200, r.text
        state = r.json()["chunks"][0]
        assert (state["volume"], state["confidence"], state["scale"]) == (0, 0, 0)
    assert client.delete(f"/api/rag/documents/{doc_id}").status_code == 200


@pytest.mark.parametrize("parts", [True, "2", 2.0])
def test_a_count_must_be_a_json_integer(client, run_id, parts):
    """Before, "parts": true made a collection of 1 part, and "2" or 2.0 one of 2."""
    r = client.post("/api/rag/collections", json={"name": f"c{run_id}", "parts": parts})
    assert r.status_code == 400 and r.json()["error"].startswith("parts must be an integer")
    doc = {"doc_id": f"{run_id}-n", "text": "some words", "chunking": {"overlap_tokens": parts}}
    r = client.post("/api/rag/documents", json=doc)
    assert r.status_code == 400 and "chunking.overlap_tokens" in r.text, r.text


def test_a_body_with_a_byte_order_mark_is_read(client):
    """Before, a UTF-8 BOM (Windows tools write one) made any body "not valid JSON"."""
    body = b"\xef\xbb\xbf" + json.dumps({"embedding": VECTOR, "k": 1}).encode()
    r = client.post("/api/rag/search", content=body, headers=JSON_TYPE)
    assert r.status_code == 200, r.text
    r = client.post("/api/rag/search", content=b"\xef\xbb\xbf\xef\xbb\xbf{}", headers=JSON_TYPE)
    assert r.status_code == 400 and "not valid JSON" in r.text  # one mark, not any number


def test_a_url_of_bytes_that_are_not_utf8_is_refused(client):
    # %FF%FE was read as "\ufffd\ufffd": a DELETE of it deleted the document of that name
    body = {**copy.deepcopy(DOCUMENT), "doc_id": "\ufffd\ufffd"}
    body["chunks"][0]["chunk_id"] = "replacement-0"
    assert client.post("/api/rag/documents", json=body).status_code == 200
    for method, url in [("DELETE", "/api/rag/documents/%FF%FE"),
                        ("GET", "/api/rag/documents/%C3"),
                        ("GET", "/api/rag/collections?limit=%FF")]:  # fmt: skip
        r = client.request(method, url)
        assert r.status_code == 400, (url, r.text)
        assert r.json() == {"error": "the URL holds percent-encoded bytes that are not UTF-8"}
    kept = "/api/rag/documents/" + quote(body["doc_id"], safe="")
    assert client.get(kept).status_code == 200
    assert client.delete(kept).status_code == 200
