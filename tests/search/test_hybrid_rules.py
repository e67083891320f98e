"""The rules of hybrid search that need no database: the four-weight rule, query
classification and tag inference, each as a table."""

from __future__ import annotations

import math

import pytest

from app.classify import CLASSES, classify
from app.errors import BadRequest
from app.ingest.models import DocumentIn
from app.ingest.prepare import CHUNK_COLUMNS, IngestRules, prepare_document
from app.settings import Settings
from app.spaces import SpaceInfo
from app.tagging import inferred_tags, merge_tags
from app.weights import QueryParts, WeightDefaults, WeightLayer, apply_layers, blend_weights

pytestmark = pytest.mark.unit

DEFAULTS = {"default_w_rec": 0.1, "default_w_sig": 0.1}
BOTH = QueryParts(semantic=True, lexical=True)
TEXT_ONLY = QueryParts(semantic=False, lexical=True)


@pytest.mark.parametrize(
    ("given", "share", "parts", "expected"),
    [
        # (w_cos, w_lex, w_rec, w_sig) given -> (w_cos, w_lex, w_rec, w_sig) used
        ((None, None, None, None), 0.5, BOTH, (0.4, 0.4, 0.1, 0.1)),
        ((None, None, None, None), 0.3, BOTH, (0.24, 0.56, 0.1, 0.1)),
        ((None, None, 0.0, 0.0), 1.0, BOTH, (1.0, 0.0, 0.0, 0.0)),
        ((None, None, 0.0, 0.0), 0.0, BOTH, (0.0, 1.0, 0.0, 0.0)),
        ((None, None, None, None), 0.5, TEXT_ONLY, (0.0, 0.8, 0.1, 0.1)),
        ((None, 0.5, None, None), 0.5, BOTH, (0.3, 0.5, 0.1, 0.1)),  # w_cos = 1 - rest
        ((0.6, 0.6, 0.0, 0.0), 0.5, BOTH, (0.5, 0.5, 0.0, 0.0)),  # normalised
        ((0.2, None, 0.1, 0.1), 0.25, BOTH, (0.05 / 0.4, 0.15 / 0.4, 0.1 / 0.4, 0.1 / 0.4)),
        ((None, 0.9, 0.3, 0.3), 0.5, BOTH, (0.0, 0.6, 0.2, 0.2)),  # w_cos = max(0, -0.5)
        ((None, 0.4, 0.0, 0.0), 0.5, TEXT_ONLY, (0.0, 1.0, 0.0, 0.0)),
    ],
)
def test_four_weight_rule(given, share, parts, expected):
    w_cos, w_lex, w_rec, w_sig = given
    weights = blend_weights(w_rec, w_sig, w_cos, w_lex=w_lex, vector_share=share, parts=parts,
                            **DEFAULTS)  # fmt: skip
    got = (weights.w_cos, weights.w_lex, weights.w_rec, weights.w_sig)
    assert got == pytest.approx(expected)
    assert math.isclose(sum(got), 1.0)


def test_without_text_there_is_no_keyword_weight():
    weights = blend_weights(None, None, parts=QueryParts(semantic=True, lexical=False), **DEFAULTS)
    assert weights.w_lex is None and "w_lex" not in weights.as_dict()


@pytest.mark.parametrize(
    ("layer", "parts", "message"),
    [
        (WeightLayer(w_lex=0.5), QueryParts(semantic=True, lexical=False),
         "w_lex needs query text (the query field)"),
        (WeightLayer(w_cos=0.5), TEXT_ONLY,
         "w_cos needs a query vector (embedding or embeddings), or a server embedder"),
        (WeightLayer(w_cos=0.0, w_lex=0.0, w_rec=0.0, w_sig=0.0), BOTH,
         "weights must not all be 0 (w_cos, w_lex, w_rec, w_sig): w_cos 0 (the request); "
         "w_lex 0 (the request); w_rec 0 (the request); w_sig 0 (the request)"),
    ],
)  # fmt: skip
def test_bad_four_weight_requests(layer, parts, message):
    with pytest.raises(BadRequest) as caught:
        apply_layers(layer, [], [], defaults=WeightDefaults(0.1, 0.1, 0.5), parts=parts)
    assert caught.value.message == message


def test_a_profile_that_weighs_a_query_nothing_is_named():
    # the message blamed w_cos (its field too), which the request never sent
    keywords = [("kw", WeightLayer(w_lex=1.0, w_cos=0.0, w_rec=0.0, w_sig=0.0))]
    vector_only = QueryParts(semantic=True, lexical=False)
    with pytest.raises(BadRequest) as caught:
        apply_layers(WeightLayer(), keywords, [], defaults=WeightDefaults(0.1, 0.1, 0.5),
                     parts=vector_only)  # fmt: skip
    assert caught.value.message == (
        "weights must not all be 0 (w_cos, w_rec, w_sig): w_cos 0 (profile kw); "
        "w_rec 0 (profile kw); w_sig 0 (profile kw)"
    )
    assert "field" not in caught.value.body()


def test_zeros_are_named_where_they_come_from_and_only_they():
    # a text-only query: w_cos counts 0 for want of a vector, whatever sets it; the
    # settings' zeros are named; the request's own zero is its field
    semantic = [("p", WeightLayer(w_cos=1.0, w_lex=0.0))]
    with pytest.raises(BadRequest) as caught:
        apply_layers(WeightLayer(w_rec=0.0), semantic, [], defaults=WeightDefaults(0.0, 0.0, 0.5),
                     parts=TEXT_ONLY)  # fmt: skip
    assert caught.value.message == (
        "weights must not all be 0 (w_cos, w_lex, w_rec, w_sig): w_cos (no query vector); "
        "w_lex 0 (profile p); w_rec 0 (the request); w_sig 0 (the settings, RAG_DEFAULT_W_SIG)"
    )
    assert caught.value.body()["field"] == "w_rec"


def test_request_share_beats_profile_share_beats_settings():
    defaults = WeightDefaults(0.0, 0.0, 0.5)
    profile = [("profile", WeightLayer(hybrid_vector_weight=0.2))]
    from_profile = apply_layers(WeightLayer(), profile, [], defaults=defaults, parts=BOTH)
    assert (from_profile.blend.w_cos, from_profile.blend.w_lex) == pytest.approx((0.2, 0.8))
    request = WeightLayer(hybrid_vector_weight=0.9)
    from_request = apply_layers(request, profile, [], defaults=defaults, parts=BOTH)
    assert (from_request.blend.w_cos, from_request.blend.w_lex) == pytest.approx((0.9, 0.1))
    from_settings = apply_layers(WeightLayer(), [], [], defaults=defaults, parts=BOTH)
    assert (from_settings.blend.w_cos, from_settings.blend.w_lex) == pytest.approx((0.5, 0.5))


@pytest.mark.parametrize(
    ("text", "query_class", "reason"),
    [
        ("`parse_config`", "lookup", "a backticked name"),
        ("VectorStore", "lookup", "a camelCase or PascalCase identifier"),
        ("where is getUserName defined", "lookup", "a camelCase or PascalCase identifier"),
        ("XMLHttpRequest", "lookup", "a camelCase or PascalCase identifier"),
        ("mRNA levels in iPSC-derived neurons", "general", "no rule matched"),
        ("parse_config", "lookup", "a snake_case identifier"),
        ("What is parse_config", "lookup", "'what is X' with X an identifier"),
        ('the "retry budget" setting', "lookup", "a short quoted name"),
        ("what does '=' mean in a filter", "general", "no rule matched"),
        ("SELECT * FROM rag.chunks WHERE 1=1 OR ''='", "code", "an SQL statement"),
        ("os.path.join", "lookup", "a dotted name"),
        ("how does the connection pool work", "concept", "'how does X work'"),
        ("why are vectors normalised", "concept", "a why question"),
        ("explain the difference between BM25 and TF-IDF", "concept",
         "asks for an explanation"),
        ("implement a retry decorator", "code", "asks for code"),
        ("example of reading a gzip file", "code", "asks for code"),
        ("x => x + 1", "code", "code-like tokens"),
        ("KeyError when loading settings", "debug", "an exception or error name"),
        ('Traceback (most recent call last):\n  File "a.py", line 3', "debug",
         "stack trace text"),
        ("the upload fails with status 500", "debug", "error words"),
        ("zero-dimensional biomaterials lack inductive properties", "general",
         "no rule matched"),
    ],
)  # fmt: skip
def test_classification_table(text, query_class, reason):
    found = classify(text)
    assert (found.query_class, found.reason) == (query_class, reason)
    assert 0 <= found.confidence <= 1
    assert found.vector_share == CLASSES[query_class].vector_share


def test_class_balances_and_contested_confidence():
    shares = {name: (c.vector_share, round(1 - c.vector_share, 6)) for name, c in CLASSES.items()}
    assert shares["lookup"][0] < shares["general"][0] < shares["concept"][0]
    alone = classify("why is the index rebuilt")
    contested = classify("why does KeyError happen")
    assert alone.also_matched == ()
    assert contested.also_matched and contested.confidence < 0.85


@pytest.mark.parametrize(
    ("text", "category", "tags"),
    [
        ("Fixed the crash in the parser", None, ["bugfix"]),
        ("TODO: replace this hack with a real lock", None, ["tech-debt"]),
        ("The cache cuts latency in half", None, ["perf"]),
        ("Avoid calling this from a signal handler", None, ["warning"]),
        ("Don't share connections between threads", "learning", ["warning"]),
        ("Plain description of the module", "warning", ["warning"]),
        ("A quick fix for a slow query: a temporary workaround", "decision",
         ["bugfix", "tech-debt", "perf"]),  # "fix" is a bugfix word too
        ("Plain description of the module", "pattern", []),
        ("Prefixed words do not count: prefix, debugger, cached_property", None, []),
    ],
)  # fmt: skip
def test_tag_inference_table(text, category, tags):
    assert inferred_tags(text, category) == tags


def test_inferred_tags_never_duplicate_given_ones():
    assert merge_tags(["perf", "core"], ["core", "bugfix"], ["bugfix", "perf", "warning"]) == [
        "perf", "core", "bugfix", "warning",
    ]  # fmt: skip


def _prepared_tags(infer: bool) -> list[list[str]]:
    doc = DocumentIn.model_validate({
        "doc_id": "d", "category": "warning", "tags": ["perf"],
        "chunks": [{"chunk_id": "c", "chunk": "a slow fix", "tags": ["bugfix"],
                    "embedding": [1.0, 0.0]}],
    })  # fmt: skip
    settings = Settings(infer_tags=infer)
    rules = IngestRules.from_settings(settings)
    prepared = prepare_document(doc, {"default": SpaceInfo(1, "default", 2)}, rules)
    return [chunk.row[CHUNK_COLUMNS.index("tags")] for chunk in prepared.chunks]


def test_ingest_merges_inferred_tags_unless_switched_off():
    assert _prepared_tags(infer=True) == [["perf", "bugfix", "warning"]]
    assert _prepared_tags(infer=False) == [["perf", "bugfix"]]
