"""The evidence `profile: auto` reads and the rule that turns it into a balance."""

from __future__ import annotations

import pytest

from app.search.auto import RULE
from app.search.evidence import EVIDENCE_ROWS, Evidence, EvidenceRule, evidence_of

pytestmark = pytest.mark.unit


def test_peaks_are_the_best_score_above_the_mean_of_the_top_rows():
    rows = [{"sem": 0.6, "lex": 1.0}, {"sem": 0.5, "lex": 0.0}, {"sem": 0.4, "lex": None}]
    evidence = evidence_of(rows)
    assert evidence.lex_peak == pytest.approx(1.0 - 1.0 / 3)
    assert evidence.sem_peak == pytest.approx(0.6 - 0.5)
    assert evidence.lean == pytest.approx(evidence.lex_peak - evidence.sem_peak)
    assert evidence.rows == 3


def test_only_the_top_rows_count():
    rows = [{"sem": 0.5, "lex": 0.5}] * EVIDENCE_ROWS + [{"sem": 0.0, "lex": 0.0}] * 5
    assert evidence_of(rows).lex_peak == 0.0


@pytest.mark.parametrize(
    ("lean", "share"),
    [(0.5, 0.3), (0.21, 0.3), (0.2, 0.5), (0.0, 0.5), (-0.2, 0.5), (-0.3, 0.7)],
)
def test_the_rule_moves_only_past_its_margin(lean, share):
    evidence = Evidence(lex_peak=max(lean, 0.0), sem_peak=max(-lean, 0.0), rows=10)
    assert EvidenceRule(center=0.0, margin=0.2, step=0.2).vector_share(evidence) == share


def test_the_rule_moves_from_the_configured_default_and_stays_in_range():
    rule = EvidenceRule(center=0.0, margin=0.1, step=0.3)
    sharp_keywords = Evidence(lex_peak=0.9, sem_peak=0.0, rows=10)
    assert rule.vector_share(sharp_keywords, base=0.2) == 0.0
    assert rule.vector_share(Evidence(0.0, 0.9, 10), base=0.8) == 1.0


def test_no_rows_is_no_evidence():
    assert RULE.vector_share(evidence_of([]), base=0.6) == 0.6
