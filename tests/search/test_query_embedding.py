"""The question is embedded on the server only when its vector counts, and the time it
took is reported beside the database's stages."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from conftest import PgServer, ServiceProcess, service_on_own_database


@pytest.fixture(scope="module")
def embedding(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    with service_on_own_database(pg, {"RAG_DEMO": "true", "RAG_EMBEDDER": "local"}) as service:
        yield service


def _search(service: ServiceProcess, **body: object) -> dict:
    r = httpx.post(service.base_url + "/api/rag/search", json={"query": "parse json", **body})
    assert r.status_code == 200, r.text
    return r.json()["query_metadata"]


def test_a_question_whose_vector_counts_is_embedded_and_timed(embedding):
    meta = _search(embedding)
    assert meta["spaces_searched"] == ["default"]
    assert meta["timings_ms"]["embed"] > 0
    assert next(iter(meta["timings_ms"])) == "embed"  # the first stage, before the database's


@pytest.mark.parametrize(
    "body",
    [{"hybrid_vector_weight": 0}, {"w_cos": 0, "w_lex": 0.8}, {"active_spaces": []},
     {"w_rec": 0.5, "w_sig": 0.5, "w_lex": 0}],
    ids=["keywords only", "w_cos 0", "no space searched", "recency and signal only"],
)  # fmt: skip
def test_a_question_whose_vector_would_weigh_nothing_is_not_embedded(embedding, body):
    meta = _search(embedding, **body)
    assert "embed" not in meta["timings_ms"]
    assert meta["spaces_searched"] == []
