"""Query classification for ``profile: auto``: what kind of question the text asks.

Each class carries a keyword/vector balance (the vector share ``h`` of the weight rule)
and a suggested k. Rules are regular expressions with a confidence; the class of the
most confident rule that fires wins (on a tie, the earlier class in ``CLASSES``), and
its confidence drops by ``CONTESTED_PENALTY`` when a rule of another class fired too.
No rule firing means ``general`` with confidence ``GENERAL_CONFIDENCE``.

The balances start from the issue's values and were tuned on the SciFact train queries
(``python bench/quality.py --split train --tune``), never on its test queries: the best
vector share was 0.5 overall and for ``general`` (690 of 809 queries), so ``general``
moved from 0.6 to 0.5. The other classes had too few train queries to move them
(concept 9, debug 5, code 1; lookup's 104 were mostly gene names such as "iPSC", which
the identifier rule no longer takes for camelCase).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class QueryClass:
    name: str
    vector_share: float  # 0 = keywords only, 1 = vectors only
    suggested_k: int
    description: str


CLASSES: dict[str, QueryClass] = {
    c.name: c
    for c in (
        QueryClass("debug", 0.5, 8, "an error message, exception or stack trace"),
        QueryClass("lookup", 0.3, 5, "an identifier or exact name to find"),
        QueryClass("code", 0.6, 8, "a request for code or an example"),
        QueryClass("concept", 0.8, 10, "how or why something works"),
        QueryClass("general", 0.5, 10, "anything else"),
    )
}
GENERAL = "general"
GENERAL_CONFIDENCE = 0.5
CONTESTED_PENALTY = 0.1


@dataclass(frozen=True)
class Rule:
    query_class: str
    confidence: float
    reason: str
    pattern: re.Pattern[str]


def _rule(query_class: str, confidence: float, reason: str, pattern: str) -> Rule:
    return Rule(query_class, confidence, reason, re.compile(pattern, re.IGNORECASE))


def _cased(query_class: str, confidence: float, reason: str, pattern: str) -> Rule:
    return Rule(query_class, confidence, reason, re.compile(pattern))


HUMPS = r"(?:[a-z]+|[A-Z]+[a-z0-9]+)(?:[A-Z][a-z0-9]+)+"
IDENTIFIER = r"(?:`[^`]+`|" + HUMPS + r"|\w+_\w+|\w+(?:\.\w+)+|\w+\(\))"

RULES: tuple[Rule, ...] = (
    _cased("debug", 0.95, "stack trace text",
           r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|\n\s+at [\w.$]+\("),
    _cased("debug", 0.85, "an exception or error name", r"\b[A-Z]\w*(?:Error|Exception)\b"),
    _rule("debug", 0.7, "error words",
          r"\b(errors?|exceptions?|traceback|stack ?trace|segfault|panic(ked)?|crash(es|ed)?|"
          r"fails?|failed|failing|throws?|raised?|raises)\b"),
    _rule("lookup", 0.9, "a backticked name", r"`[^`]+`"),
    _cased("lookup", 0.9, "'what is X' with X an identifier",
           r"(?i:\bwhat\s+(?:is|are|does)\s+)" + IDENTIFIER),
    # A name starts with a letter or digit: '=' or '' in a statement are not names.
    _rule("lookup", 0.8, "a short quoted name",
          r"[\"'“‘]\w[^\"'”’\s]*(?:\s[^\"'”’\s]+){0,2}[\"'”’]"),
    # Humps: a capital followed by lower case, after a first part ("getUser",
    # "VectorStore", "XMLHttpRequest"); "mRNA", "iPSC" or "PrP" are names, not identifiers.
    _cased("lookup", 0.8, "a camelCase or PascalCase identifier",
           r"\b" + HUMPS + r"\b"),
    _rule("lookup", 0.8, "a snake_case identifier", r"\b[a-z0-9]+_[a-z0-9_]+\b"),
    _rule("lookup", 0.7, "a dotted name", r"\b[a-z_]\w*\.[a-z_]\w*(?:\.\w+)*\b"),
    _cased("code", 0.85, "an SQL statement",
           r"\b(?:SELECT|INSERT|UPDATE|DELETE)\b[\s\S]*\b(?:FROM|INTO|SET|WHERE)\b"),
    _rule("code", 0.8, "asks for code",
          r"\b(implement\w*|example of|examples? (?:for|using|with)|code (?:for|to|that)|"
          r"snippet|how (?:do i|to) (?:write|code|use|call))\b"),
    _rule("code", 0.7, "code-like tokens",
          r"\w\(\)|=>|::|->|[{};]|\b(?:def|class|import|return|async|await|const|var|let)\s"),
    _rule("concept", 0.85, "'how does X work'", r"\bhow\s+(?:does|do|did|is|are)\b.*\bwork"),
    _rule("concept", 0.8, "a why question", r"\bwhy\b"),
    _rule("concept", 0.7, "asks for an explanation",
          r"\b(explain\w*|difference between|compare[ds]?|concepts?|overview|understand\w*|"
          r"what (?:is|are) the (?:idea|purpose|role))\b"),
)  # fmt: skip


@dataclass(frozen=True)
class Classification:
    query_class: str
    confidence: float
    reason: str
    vector_share: float
    suggested_k: int
    also_matched: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "class": self.query_class,
            "confidence": self.confidence,
            "reason": self.reason,
            "vector_share": self.vector_share,
            "keyword_share": round(1 - self.vector_share, 6),
            "suggested_k": self.suggested_k,
            "also_matched": list(self.also_matched),
        }


def of_class(name: str, confidence: float, reason: str) -> Classification:
    query_class = CLASSES[name]
    return Classification(
        name, confidence, reason, query_class.vector_share, query_class.suggested_k
    )


def classify(text: str) -> Classification:
    """The class of a query text (see the module docstring)."""
    fired = [rule for rule in RULES if rule.pattern.search(text)]
    if not fired:
        return of_class(GENERAL, GENERAL_CONFIDENCE, "no rule matched")
    order = list(CLASSES)
    best = max(fired, key=lambda r: (r.confidence, -order.index(r.query_class)))
    others = tuple(dict.fromkeys(r.query_class for r in fired if r.query_class != best.query_class))
    confidence = best.confidence - (CONTESTED_PENALTY if others else 0.0)
    chosen = of_class(best.query_class, round(confidence, 4), best.reason)
    return Classification(**{**chosen.__dict__, "also_matched": others})
