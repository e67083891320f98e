"""Metadata is stored once: a document's metadata in its document row, not copied into
each of its chunks, however many chunks share it; and the limits on its size hold."""

from __future__ import annotations

import psycopg
import pytest

from app.errors import BadRequest
from app.ingest.models import DocumentIn
from app.ingest.prepare import REQUEST_METADATA_MAX_BYTES, IngestRules, prepare_document
from app.validation import METADATA_MAX_BYTES, parse_model
from helpers import AS_OF, register_spaces, store_corpus

DIMS = 4
CHUNKS = 250


def _document(doc_metadata: dict, chunk_metadata: dict | None = None) -> dict:
    return {
        "doc_id": "meta-once", "metadata": doc_metadata,
        "chunks": [{"chunk_id": f"meta-once-{n}", "chunk": f"chunk {n}",
                    "embeddings": {"small": [1.0, 0.0, 0.0, float(n)]},
                    "metadata": chunk_metadata or {}} for n in range(CHUNKS)],
    }  # fmt: skip


def _chunk_bytes(conn: psycopg.Connection) -> int:
    (size,) = conn.execute(
        "SELECT sum(pg_column_size(c.*)) FROM rag.chunks c WHERE doc_id = 'meta-once'"
    ).fetchone()
    return int(size or 0)


def test_a_documents_metadata_is_stored_once_not_in_each_chunk(db_url):
    register_spaces(db_url, {"small": DIMS})
    big = {"notes": "n" * (METADATA_MAX_BYTES - 100)}
    with psycopg.connect(db_url, autocommit=True) as conn:
        store_corpus(db_url, [_document({})])
        without = _chunk_bytes(conn)
        store_corpus(db_url, [_document(big)])
        with_metadata = _chunk_bytes(conn)
        (stored,) = conn.execute(
            "SELECT pg_column_size(metadata) FROM rag.documents WHERE doc_id = 'meta-once'"
        ).fetchone()
        inheriting = conn.execute(
            "SELECT count(*) FILTER (WHERE inherits), count(*) FROM rag.chunks "
            "WHERE doc_id = 'meta-once'"
        ).fetchone()
    # 250 copies would add 250 x 64 KB (compressed, still far more than a byte a chunk)
    assert with_metadata - without <= CHUNKS, (without, with_metadata)
    assert stored > 0
    assert inheriting == (CHUNKS, CHUNKS)


def test_metadata_past_its_limits_is_refused():
    too_big = {"notes": "n" * METADATA_MAX_BYTES}
    with pytest.raises(BadRequest, match=f"at most {METADATA_MAX_BYTES:,} bytes as JSON"):
        parse_model(DocumentIn, _document(too_big), {})
    each = {"notes": "n" * (METADATA_MAX_BYTES - 100)}
    many = parse_model(DocumentIn, _document({}, each), {})
    assert CHUNKS * METADATA_MAX_BYTES > REQUEST_METADATA_MAX_BYTES
    rules = IngestRules("small", max_chunks=1000, infer_tags=False, now=AS_OF)
    with pytest.raises(BadRequest, match="bytes of metadata in all"):
        prepare_document(many, {}, rules)
