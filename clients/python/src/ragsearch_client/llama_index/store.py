"""RagsearchVectorStore: a LlamaIndex vector store over a ragsearch collection."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from llama_index.core.schema import BaseNode
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    VectorStoreQuery,
    VectorStoreQueryMode,
    VectorStoreQueryResult,
)
from pydantic import Field, PrivateAttr

from ragsearch_client._hits import Hit, ahits, hits
from ragsearch_client._per_loop import PerLoop
from ragsearch_client.async_client import AsyncClient
from ragsearch_client.client import DEFAULT_URL, Client
from ragsearch_client.errors import NotFoundError
from ragsearch_client.llama_index._nodes import by_document, document_of, node_of
from ragsearch_client.llama_index.filters import to_filter
from ragsearch_client.models import DocumentResponse, SearchRequest

ONLY_RELEVANCE = {"w_rec": 0.0, "w_sig": 0.0, "max_per_source": 0}


class RagsearchVectorStore(BasePydanticVectorStore):
    """The nodes of one ragsearch ``collection``, with their embeddings in ``space``
    (default: the service's default space).

    The nodes of a source document (ref_doc_id) are the chunks of one ragsearch
    document, so ``delete(ref_doc_id)`` removes them together; each chunk's id is the
    node id, its metadata the node's metadata, which MetadataFilters read.

    Query modes: default (similarity alone), hybrid (similarity and keywords, ``alpha``
    the vectors' share), text_search and sparse (keywords alone, BM25), mmr (the
    service's diversity re-ranking, ``mmr_threshold`` the relevance side). Rows are
    ranked by relevance alone unless ``search_options`` (any search request field:
    ``w_rec``, ``recency``, ``profile``, ...) say otherwise.
    """

    stores_text: bool = True
    flat_metadata: bool = False
    base_url: str = DEFAULT_URL
    api_key: str | None = None
    collection: str = "default"
    space: str | None = None
    search_options: dict[str, Any] = Field(default_factory=dict)
    timeout: float = 30.0

    _sync: Client | None = PrivateAttr(default=None)
    _async: PerLoop | None = PrivateAttr(default=None)

    @classmethod
    def class_name(cls) -> str:
        return "RagsearchVectorStore"

    @property
    def client(self) -> Client:
        if self._sync is None:
            self._sync = Client(self.base_url, self.api_key, timeout=self.timeout)
        return self._sync

    @property
    def async_client(self) -> AsyncClient:
        """The AsyncClient of the running event loop."""
        if self._async is None:
            self._async = PerLoop(lambda: AsyncClient(self.base_url, self.api_key,
                                                      timeout=self.timeout))  # fmt: skip
        return self._async.get()

    # ---- writing -----------------------------------------------------------------------

    def add(self, nodes: Sequence[BaseNode], **kwargs: Any) -> list[str]:
        """Store nodes (they need embeddings); their ids."""
        for doc_id, group in by_document(nodes).items():
            stored = self._stored(doc_id)
            self.client.put_document(document_of(self.collection, doc_id, group, stored,
                                                 self.space))  # fmt: skip
        return [node.node_id for node in nodes]

    async def async_add(self, nodes: Sequence[BaseNode], **kwargs: Any) -> list[str]:
        async def store(doc_id: str, group: list[BaseNode]) -> None:
            stored = await self._astored(doc_id)
            document = document_of(self.collection, doc_id, group, stored, self.space)
            await self.async_client.put_document(document)

        await asyncio.gather(*(store(d, group) for d, group in by_document(nodes).items()))
        return [node.node_id for node in nodes]

    def _stored(self, doc_id: str) -> DocumentResponse | None:
        try:
            return self.client.get_document(doc_id, collection=self.collection,
                                            include_embeddings=True)  # fmt: skip
        except NotFoundError:
            return None

    async def _astored(self, doc_id: str) -> DocumentResponse | None:
        try:
            return await self.async_client.get_document(
                doc_id, collection=self.collection, include_embeddings=True
            )
        except NotFoundError:
            return None

    def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        """Delete a source document's nodes (nothing when there are none)."""
        with contextlib.suppress(NotFoundError):
            self.client.delete_document(ref_doc_id, collection=self.collection)

    async def adelete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        with contextlib.suppress(NotFoundError):
            await self.async_client.delete_document(ref_doc_id, collection=self.collection)

    # ---- querying ----------------------------------------------------------------------

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        result = self.client.search(self.request(query, kwargs))
        return as_result(hits(self.client, self.collection, result.rows))

    async def aquery(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        client = self.async_client
        result = await client.search(self.request(query, kwargs))
        return as_result(await ahits(client, self.collection, result.rows))

    def request(self, query: VectorStoreQuery, options: dict[str, Any]) -> SearchRequest:
        """The search request a VectorStoreQuery is."""
        fields: dict[str, Any] = {"collection": self.collection, "k": query.similarity_top_k,
                                  **ONLY_RELEVANCE, **mode_fields(query)}  # fmt: skip
        if query.query_embedding is not None and query.mode != VectorStoreQueryMode.TEXT_SEARCH:
            vector = [float(value) for value in query.query_embedding]
            fields.update({"embedding": vector} if self.space is None
                          else {"embeddings": {self.space: vector}})  # fmt: skip
        if query.node_ids:
            raise ValueError("querying by node_ids is not supported: filter by doc_ids")
        if query.doc_ids:
            fields["doc_ids"] = list(query.doc_ids)
        if query.filters is not None and query.filters.filters:
            fields["filter"] = to_filter(query.filters)
        return SearchRequest.model_validate({**fields, **self.search_options, **options})


def mode_fields(query: VectorStoreQuery) -> dict[str, Any]:
    mode = query.mode
    if mode == VectorStoreQueryMode.DEFAULT:
        return {"w_cos": 1.0}
    if mode == VectorStoreQueryMode.MMR:
        lambda_mult = 0.5 if query.mmr_threshold is None else query.mmr_threshold
        return {"w_cos": 1.0, "diversity_factor": 1.0 - lambda_mult}
    if mode == VectorStoreQueryMode.HYBRID:
        fields: dict[str, Any] = {"query": required_text(query)}
        if query.alpha is not None:
            fields["hybrid_vector_weight"] = query.alpha
        return fields
    if mode in (VectorStoreQueryMode.TEXT_SEARCH, VectorStoreQueryMode.SPARSE):
        return {"query": required_text(query), "w_cos": 0.0, "w_lex": 1.0}
    raise ValueError(f"query mode {mode.value!r} is not supported by ragsearch")


def required_text(query: VectorStoreQuery) -> str:
    if not query.query_str:
        raise ValueError(f"query mode {query.mode.value!r} needs query_str")
    return query.query_str


def as_result(found: list[Hit]) -> VectorStoreQueryResult:
    return VectorStoreQueryResult(
        nodes=[node_of(hit) for hit in found],
        similarities=[hit.score for hit in found],
        ids=[hit.row.chunk_id for hit in found],
    )
