"""The asynchronous client against the real service, and its parity with Client."""

from __future__ import annotations

import inspect

import pytest

from ragsearch_client import AsyncClient, BadRequestError, BulkIngestError, Client, NotFoundError
from support import unit


async def test_store_search_explain_delete(async_client, collection):
    for n in range(3):
        await async_client.put_document(
            collection=collection,
            doc_id=f"doc-{n}",
            metadata={"even": n % 2 == 0},
            chunks=[{"chunk_id": f"chunk-{n}", "chunk": f"text {n}", "embedding": unit(n)}],
        )
    result = await async_client.search(
        collection=collection, embedding=unit(2), k=2, w_rec=0.0, w_sig=0.0,
        filter={"even": True},
    )  # fmt: skip
    assert [row.doc_id for row in result.rows] == ["doc-2", "doc-0"]
    why = await async_client.explain(collection=collection, embedding=unit(2), chunk_id="chunk-2")
    assert why.rank == 1
    counted = await async_client.facets(collection=collection, fields=["metadata.even"])
    assert {v.value: v.chunks for v in counted.facets["metadata.even"].values} == {
        True: 2,
        False: 1,
    }
    assert (await async_client.stats(collection)).documents == 3
    await async_client.delete_document("doc-2", collection=collection)
    with pytest.raises(NotFoundError) as caught:
        await async_client.get_document("doc-2", collection=collection)
    assert caught.value.body["doc_id"] == "doc-2"


async def test_errors_carry_status_and_body(async_client, collection):
    with pytest.raises(BadRequestError) as caught:
        await async_client.search(collection=collection, query="x", k=99)
    assert caught.value.status_code == 400
    assert caught.value.message == "k must be an integer in 1..50"


async def test_async_bulk_ingest(async_client, collection):
    def documents():
        for n in range(7):
            yield {"collection": collection, "doc_id": f"d{n}",
                   "chunks": [{"chunk": f"c{n}", "embedding": unit(n)}]}  # fmt: skip

    seen = []
    done = await async_client.ingest(documents(), batch_size=3, concurrency=2,
                                     on_progress=lambda p: seen.append(p.documents))  # fmt: skip
    assert seen == [3, 6, 7] and (done.documents, done.chunks) == (7, 7)
    assert done.vectors == {"default": 7}
    bad = [{"collection": collection, "doc_id": "ok", "chunks": [{"chunk": "fine"}]},
           {"collection": collection, "doc_id": "bad", "chunks": [{"chunk": ""}]}]  # fmt: skip
    with pytest.raises(BulkIngestError) as caught:
        await async_client.ingest(bad)
    assert (caught.value.doc_id, caught.value.position) == ("bad", 1)
    assert isinstance(caught.value.cause, BadRequestError)


def public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in vars(cls).items()
        if callable(member) and not name.startswith("_")
    }


def test_the_async_client_has_the_sync_clients_methods():
    sync = public_methods(Client)
    asynchronous = public_methods(AsyncClient)
    sync["aclose"] = sync.pop("close")
    assert sync.keys() == asynchronous.keys()
    for name, signature in sync.items():
        assert list(signature.parameters) == list(asynchronous[name].parameters), name
        if name != "aclose":
            assert inspect.iscoroutinefunction(getattr(AsyncClient, name)), name
