"""Bulk ingest streams: documents are taken from the iterable a batch at a time."""

from __future__ import annotations

import pytest

from ragsearch_client import BadRequestError, BulkIngestError, NotFoundError
from support import unit


def test_ingest_takes_documents_a_batch_at_a_time(client, collection):
    taken = []

    def documents():
        for n in range(25):
            taken.append(n)
            yield {"collection": collection, "doc_id": f"d{n}", "metadata": {"n": n},
                   "chunks": [{"chunk": f"chunk {n}", "embedding": unit(n)}]}  # fmt: skip

    progress = []

    def report(done):
        progress.append((done.documents, len(taken)))

    done = client.ingest(documents(), batch_size=10, concurrency=3, on_progress=report)
    assert progress == [(10, 10), (20, 20), (25, 25)]
    assert (done.documents, done.chunks, done.vectors) == (25, 25, {"default": 25})
    assert done.seconds > 0
    assert client.stats(collection).documents == 25
    assert client.get_document("d17", collection=collection).metadata == {"n": 17}


def test_a_refused_document_is_named(client, collection):
    documents = [{"collection": collection, "doc_id": f"d{n}", "chunks": [{"chunk": "x"}]}
                 for n in range(4)]  # fmt: skip
    documents[2]["chunks"][0]["embedding"] = [0.5]  # the wrong dimension
    with pytest.raises(BulkIngestError) as caught:
        client.ingest(documents, batch_size=2)
    error = caught.value
    assert (error.doc_id, error.position, error.progress.documents) == ("d2", 2, 2)
    assert isinstance(error.cause, BadRequestError) and "embedding" in error.cause.message
    assert client.get_document("d1", collection=collection).doc_id == "d1"
    with pytest.raises(NotFoundError):
        client.get_document("d2", collection=collection)


def test_a_document_that_is_not_one_fails_before_sending(client, collection):
    with pytest.raises(ValueError, match="doc_id"):
        client.ingest([{"collection": collection, "chunks": []}])
    assert client.stats(collection).documents == 0
