"""Request examples for the OpenAPI page, each of which works as given against the demo
corpus (tests/api/test_openapi.py runs every one)."""

from __future__ import annotations

from typing import Any

from app.api.openapi import NamedExamples
from app.demo import DEMO_DIMS, demo_chunk_id, demo_queries
from app.settings import Settings


def request_examples(settings: Settings) -> dict[tuple[str, str], Any]:
    """Request bodies for /docs that work as they stand against the demo corpus."""
    if settings.default_dims == DEMO_DIMS:
        vector = demo_queries()[0]["embedding"]  # "How do I parse JSON text ...?"
    else:
        vector = [round(1 / settings.default_dims**0.5, 6)] * settings.default_dims
    chunk_id = demo_chunk_id()
    return {
        ("post", "/api/rag/search"): NamedExamples(
            weighted=(
                "Weighted top-k by vector",
                {"embedding": vector, "k": 5, "w_rec": 0.1, "w_sig": 0.1},
            ),
            explained=(
                "Explained search with a profile: components, per-space scores, weights_applied",
                {"embedding": vector, "k": 3, "profile": "balanced", "explain": True},
            ),
            hybrid=(
                "Keywords and vector, blended by what a first ranking of each shows",
                {
                    "query": "parse JSON text with `json.loads`",
                    "embedding": vector,
                    "profile": "auto",
                },
            ),
            filtered=(
                "Keywords only, filtered by metadata and tags, fused by reciprocal rank",
                {
                    "query": "json decoder",
                    "w_rec": 0,
                    "w_sig": 0,
                    "fusion": "rrf",
                    "tags_any": ["json", "pickle"],
                    "filter": {"license": {"$in": ["PSF-2.0"]}},
                },
            ),
        ),
        ("post", "/api/rag/explain"): {"embedding": vector, "k": 5, "chunk_id": chunk_id},
        ("post", "/api/rag/facets"): {
            "query": "json",
            "created_after": "2020-01-01T00:00:00Z",
            "fields": ["tags", "src", "metadata.license", "collection"],
            "limit": 5,
        },
        ("post", "/api/rag/search/space/{space}"): {"query_embedding": vector, "top_k": 5},
        ("post", "/api/rag/search/purpose"): {"purpose_vector": vector, "top_k": 5},
        ("put", "/api/rag/profiles/{name}"): {
            "description": "Fresh code answers",
            "w_cos": 0.6,
            "w_rec": 0.3,
            "w_sig": 0.1,
            "recency": {"function": "exponential", "half_life_days": 14},
        },
        ("put", "/api/rag/goals/{name}"): {"embedding": vector, "description": "JSON handling"},
        ("post", "/api/rag/documents"): {
            "doc_id": "doc-123",
            "src": "https://example.com/doc",
            "title": "Intro",
            "tags": [],
            "metadata": {"license": "CC-BY-4.0"},
            "chunks": [
                {
                    "chunk_id": "doc-123-chunk-0",
                    "chunk": "Content...",
                    "created_at": "2025-11-09T10:44:00Z",
                    "volume": 2,
                    "confidence": 0.9,
                    "model": settings.default_model,
                    "embedding": vector,
                }
            ],
        },
        ("post", "/api/rag/collections"): {"name": "team-docs", "description": "One team's docs"},
        ("post", "/api/rag/spaces"): {"name": "code", "dims": 768, "model": "code-embedder"},
        ("post", "/api/rag/spaces/{name}/reembed"): {"embedder": {"kind": "local"}},
        ("post", "/api/rag/signals"): {"updates": [{"chunk_id": chunk_id, "add_volume": 1}]},
    }
