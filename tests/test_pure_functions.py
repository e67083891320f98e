"""The pure functions the search and the MCP tools rely on, without a database: MMR
order, vectors for MMR, the forgiving readings of tool arguments, and the reranker's
answer parsing, stage weights and blend; a load's rate as its summary prints it."""

from __future__ import annotations

import io
import math
import zipfile

import numpy as np
import pytest

from app.db.replicas import describe
from app.ingest.archive import directory_bytes
from app.ingest.bulk import chunk_rate, postfix
from app.mcp.lenient import Replaced, clamped_count, unit_weight
from app.mcp.rerank import _scores, _unit, blend, stage_weights
from app.search.diversity import mmr_order, unit_rows
from app.settings import Settings

pytestmark = pytest.mark.unit

E = np.eye(3)


def test_mmr_without_diversity_keeps_the_ranking():
    scores = np.array([0.9, 0.8, 0.7])
    vectors = np.array([E[0], E[0], E[1]])
    assert mmr_order(scores, vectors, 0.0, 3) == [0, 1, 2]


def test_mmr_passes_over_a_near_duplicate():
    scores = np.array([0.9, 0.85, 0.6])
    vectors = np.array([E[0], E[0], E[1]])  # row 1 repeats row 0
    assert mmr_order(scores, vectors, 0.5, 3) == [0, 2, 1]


def test_mmr_at_full_diversity_takes_the_best_then_the_least_alike():
    scores = np.array([0.9, 0.8, 0.1])
    vectors = np.array([E[0], (E[0] + E[1]) / math.sqrt(2), E[2]])
    assert mmr_order(scores, vectors, 1.0, 2) == [0, 2]


def test_mmr_ties_go_to_the_better_ranked_row_and_wanted_caps_the_length():
    scores = np.array([0.5, 0.5, 0.5])
    assert mmr_order(scores, np.zeros((3, 3)), 0.3, 2) == [0, 1]
    assert mmr_order(scores, np.zeros((3, 3)), 0.3, 10) == [0, 1, 2]


def test_unit_rows_normalise_and_leave_zeros_for_chunks_without_a_vector():
    rows = unit_rows(["a", "b", "c"], {"a": np.array([3.0, 4.0]), "c": np.zeros(2)})
    assert rows.tolist() == [[0.6, 0.8], [0.0, 0.0], [0.0, 0.0]]


@pytest.mark.parametrize(
    ("given", "expected"),
    [(0.25, 0.25), ("0.5", 0.5), (1, 1.0), (None, "not a number (null)"),
     (True, "not a number (boolean)"), ("lots", "not a number (string)"),
     (float("nan"), "NaN"), (float("inf"), "infinite"), (1.5, "outside [0,1]"),
     ([0.2], "not a number (list)")],
)  # fmt: skip
def test_unit_weight_reads_what_it_can_and_says_why_not(given, expected):
    read = unit_weight("w_rec", given)
    if isinstance(expected, str):
        assert isinstance(read, Replaced) and read.reason == expected
        assert read.as_dict(0.1)["used"] == 0.1
    else:
        assert read == expected


@pytest.mark.parametrize(
    ("given", "count", "noted"),
    [(None, 5, False), (7, 7, False), (0, 1, True), (99, 50, True), (2.6, 3, True),
     ("9", 9, True), ("x", 5, True), (float("inf"), 5, True)],
)  # fmt: skip
def test_clamped_count_clamps_rounds_and_notes(given, count, noted):
    read, note = clamped_count("top_k", given, 5, 1, 50)
    assert read == count
    assert (note is not None) == noted


def test_reranker_scores_in_either_answer_shape_and_logits_mapped_into_unit():
    cohere = {
        "results": [{"index": 1, "relevance_score": 0.9}, {"index": 0, "relevance_score": 0.2}]
    }
    assert _scores(cohere, 2) == [0.2, 0.9]
    tei = [{"index": 0, "score": 2.0}, {"index": 1, "score": -2.0}]
    assert _scores(tei, 2) == pytest.approx([_unit(2.0), 1 - _unit(2.0)])
    assert _unit(0.4) == 0.4 and 0.5 < _unit(3.0) < 1.0
    with pytest.raises(ValueError, match="no results list"):
        _scores({"error": "down"}, 1)


def test_stage_weights_normalise_and_fall_back():
    settings = Settings(reranker_url="http://reranker", reranker_weight=0.3)  # type: ignore[call-arg]
    notes: list[str] = []
    assert stage_weights({}, settings, notes) == pytest.approx((0.7, 0.3))
    assert stage_weights({"initial": 1.0, "reranker": 1.0}, settings, notes) == (0.5, 0.5)
    assert stage_weights({"initial": 0.0, "reranker": 0.0}, settings, notes) == pytest.approx(
        (0.7, 0.3)
    )
    assert "both 0" in notes[-1]
    alone = Settings(reranker_url=None)  # type: ignore[call-arg]
    assert stage_weights({"reranker": 0.9}, alone, notes) == (1.0, 0.0)
    assert "no reranker is configured" in notes[-1]


def test_blend_orders_by_the_weighted_sum_and_keeps_each_stage_score():
    rows = [{"chunk_id": "a", "score": 0.9}, {"chunk_id": "b", "score": 0.5},
            {"chunk_id": "c", "score": 0.5}]  # fmt: skip
    blended = blend(rows, [0.1, 0.9, 0.9], (0.5, 0.5))
    assert [row["chunk_id"] for row in blended] == ["b", "c", "a"]  # ties by chunk_id
    assert blended[0]["final_score"] == pytest.approx(0.7)
    assert blended[2]["initial_score"] == 0.9 and blended[2]["reranker_score"] == 0.1


def test_a_collection_key_with_a_field_it_does_not_know_is_refused():
    """Before, {"scope": "write"} (for "write": true) was dropped: the key started as a
    read-only one and every write it sent got 403."""
    with pytest.raises(ValueError, match="scope"):
        Settings(collection_keys={"k": {"collections": ["ts"], "scope": "write"}})  # type: ignore[call-arg]
    granted = Settings(collection_keys={"k": {"collections": ["ts"], "write": True}})  # type: ignore[call-arg]
    assert granted.collection_keys["k"].write


@pytest.mark.parametrize("members", [10, 70_000])  # past 65,535: zip64's end records
def test_a_zips_directory_size_is_read_from_its_end_record(members):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as out:
        for n in range(members):
            out.writestr(f"d/{n}.txt", "x")
    entries = zipfile.ZipFile(archive).infolist()
    expected = sum(46 + len(i.filename.encode()) + len(i.extra) + len(i.comment) for i in entries)
    assert directory_bytes(archive) == expected
    assert archive.tell() == 0
    assert directory_bytes(io.BytesIO(b"not a zip at all")) is None


@pytest.mark.parametrize(
    ("chunks", "seconds", "printed"),
    [(2, 7.4, "0.27 chunks/s"), (50, 2.0, "25 chunks/s"), (100_000, 42.4, "2,358 chunks/s"),
     (0, 3.0, "0 chunks/s"), (5, 0.0, "0 chunks/s")],
)  # fmt: skip
def test_a_slow_load_prints_its_rate_not_zero(chunks, seconds, printed):
    assert chunk_rate(chunks, seconds) == printed


def test_a_progress_bar_counts_in_full():
    # tqdm's own formatting printed 70,000 chunks as 7e+4 between 65000 and 75000
    shown = postfix(chunks=70_000, rate="2,358 chunks/s", embedded=0)
    assert shown == "chunks=70,000, rate=2,358 chunks/s, embedded=0"


@pytest.mark.parametrize(
    ("url", "said"),
    [("postgresql://u:SECRET@127.0.0.1:5999/ragsearch", "127.0.0.1:5999/ragsearch"),
     ("host=db port=6432 user=u password=SECRET dbname=rag", "db:6432/rag"),
     ("postgresql://u:SECRET@h1:5432,h2:5433/rag", "h1,h2:5432,5433/rag"),
     ("host=db password=SECRET = =", "a connection string that cannot be read")],
)  # fmt: skip
def test_where_a_database_is_is_said_without_its_password(url, said):
    # the words form was said back whole (/readyz's "at"), password and all
    assert describe(url) == said
