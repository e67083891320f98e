"""Tags inferred from a chunk's text and its document's category at ingest.

Each rule is a set of words (case-insensitive, whole words); a chunk gets the rule's tag
when one of them occurs. ``warning`` also comes from the document category ``warning``.
Inferred tags are added after the tags the client gave, never twice
(RAG_INFER_TAGS=false turns inference off).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

WARNING_CATEGORY = "warning"

TAG_RULES: dict[str, re.Pattern[str]] = {
    "bugfix": re.compile(
        r"\b(fix(es|ed|ing)?|bugs?|errors?|issues?|broken|crash(es|ed|ing)?|failures?)\b",
        re.IGNORECASE,
    ),
    "tech-debt": re.compile(
        r"\b(todos?|hacks?|hacky|workarounds?|temporary|quick[- ]fix(es)?|"
        r"tech(nical)?[- ]debt|refactor later)\b",
        re.IGNORECASE,
    ),
    "perf": re.compile(
        r"\b(performance|slow(er|est|ly|ness|s|ed)?|fast(er|est)?|optimi[sz]\w*|"
        r"speed(s|ed|up|ups)?|latenc(y|ies)|cach(e|es|ed|ing))\b",
        re.IGNORECASE,
    ),
    WARNING_CATEGORY: re.compile(r"(\bwarn\w*|\bavoid\w*|\bdon['’]t\b)", re.IGNORECASE),
}


def inferred_tags(text: str, category: str | None) -> list[str]:
    """The tags the rules give a chunk's text under its document's category."""
    tags = [tag for tag, pattern in TAG_RULES.items() if pattern.search(text)]
    if category == WARNING_CATEGORY and WARNING_CATEGORY not in tags:
        tags.append(WARNING_CATEGORY)
    return tags


def merge_tags(*groups: Iterable[str]) -> list[str]:
    """The tags of every group in order, each once."""
    return list(dict.fromkeys(tag for group in groups for tag in group))
