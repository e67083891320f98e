"""RagsearchRetriever: ragsearch's weighted search as a LlamaIndex retriever."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import NodeWithScore, QueryBundle

from ragsearch_client._hits import ahits, hits
from ragsearch_client.llama_index._nodes import node_of
from ragsearch_client.llama_index.store import RagsearchVectorStore
from ragsearch_client.models import SearchRequest


class RagsearchRetriever(BaseRetriever):
    """The top ``k`` nodes of a store's collection for a query, ranked by the service's
    weighted blend with any search option (``w_rec=0.2``, ``recency={...}``,
    ``profile="auto"``, ``filter={...}``, ``max_per_source=2``, ...).

    The query text is always sent (keywords, and the service's own query embedder when
    it has one); with ``embed_model`` the query is also embedded here, into the store's
    space."""

    def __init__(
        self,
        store: RagsearchVectorStore,
        *,
        k: int = 4,
        embed_model: BaseEmbedding | None = None,
        **search_options: Any,
    ) -> None:
        super().__init__()
        self.store = store
        self.k = k
        self.embed_model = embed_model
        self.search_options = search_options
        SearchRequest.model_validate({"query": "-", **search_options})  # refuse typos now

    def _request(self, bundle: QueryBundle) -> SearchRequest:
        fields: dict[str, Any] = {"collection": self.store.collection, "k": self.k,
                                  "query": bundle.query_str}  # fmt: skip
        vector = bundle.embedding
        if vector is None and self.embed_model is not None:
            vector = self.embed_model.get_query_embedding(bundle.query_str)
        if vector is not None:
            vector = [float(value) for value in vector]
            space = self.store.space
            fields.update({"embedding": vector} if space is None
                          else {"embeddings": {space: vector}})  # fmt: skip
        return SearchRequest.model_validate({**fields, **self.search_options})

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        client = self.store.client
        result = client.search(self._request(query_bundle))
        found = hits(client, self.store.collection, result.rows)
        return [NodeWithScore(node=node_of(hit), score=hit.score) for hit in found]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if query_bundle.embedding is None and self.embed_model is not None:
            query_bundle.embedding = await self.embed_model.aget_query_embedding(
                query_bundle.query_str
            )
        client = self.store.async_client
        result = await client.search(self._request(query_bundle))
        found = await ahits(client, self.store.collection, result.rows)
        return [NodeWithScore(node=node_of(hit), score=hit.score) for hit in found]
