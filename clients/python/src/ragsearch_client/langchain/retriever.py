"""RagsearchRetriever: ragsearch's weighted search as a LangChain retriever."""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field, PrivateAttr

from ragsearch_client._hits import Hit, ahits, hits
from ragsearch_client._per_loop import PerLoop
from ragsearch_client.async_client import AsyncClient
from ragsearch_client.client import DEFAULT_URL, Client
from ragsearch_client.models import SearchRequest

# The fields of this class that are search request fields, sent when set.
SEARCH_FIELDS = ("k", "w_cos", "w_lex", "w_rec", "w_sig", "hybrid_vector_weight", "space_weights",
                 "profile", "recency", "filter", "fusion", "max_per_source", "diversity_factor",
                 "min_score", "min_similarity", "exact")  # fmt: skip


class RagsearchRetriever(BaseRetriever):
    """The top ``k`` chunks of a ragsearch ``collection`` for a query, ranked by the
    service's weighted blend (similarity, keywords, recency, signal) with any of its
    options; a call's keyword arguments (``retriever.invoke(q, k=3, w_rec=0.3)``) override
    them for that call.

    The query text is always sent (keyword relevance, and the service's own query
    embedder when it has one); with ``embedding`` the query is also embedded here, into
    ``space`` (default: the service's default space).

    Each document's ``id`` is the chunk_id, its ``page_content`` the chunk, its
    ``metadata`` the chunk's metadata merged over its document's, plus ``"ragsearch"``:
    the row's score, doc_id, chunk_id, src and created_at.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    base_url: str = DEFAULT_URL
    api_key: str | None = None
    collection: str = "default"
    k: int = 4
    embedding: Embeddings | None = None
    space: str | None = None
    w_cos: float | None = None
    w_lex: float | None = None
    w_rec: float | None = None
    w_sig: float | None = None
    hybrid_vector_weight: float | None = None
    space_weights: dict[str, float] | None = None
    profile: str | None = None
    recency: dict[str, Any] | None = None
    filter: dict[str, Any] | None = None
    fusion: Literal["weighted", "rrf"] | None = None
    max_per_source: int | None = None
    diversity_factor: float | None = None
    min_score: float | None = None
    min_similarity: float | None = None
    exact: bool | None = None
    search_options: dict[str, Any] = Field(
        default_factory=dict, description="Any other search request field."
    )
    timeout: float = 30.0

    _client: Client | None = PrivateAttr(default=None)
    _async_clients: PerLoop | None = PrivateAttr(default=None)

    def _request(
        self, query: str, vector: list[float] | None, call: dict[str, Any]
    ) -> SearchRequest:
        fields: dict[str, Any] = {"collection": self.collection, "query": query}
        fields.update(self.search_options)
        for name in SEARCH_FIELDS:
            if getattr(self, name) is not None:
                fields[name] = getattr(self, name)
        fields.update(call)
        if vector is not None:
            vector = [float(value) for value in vector]
            fields.update({"embedding": vector} if self.space is None
                          else {"embeddings": {self.space: vector}})  # fmt: skip
        return SearchRequest.model_validate(fields)

    def _sync_client(self) -> Client:
        if self._client is None:
            self._client = Client(self.base_url, self.api_key, timeout=self.timeout)
        return self._client

    def _aclient(self) -> AsyncClient:
        if self._async_clients is None:
            self._async_clients = PerLoop(
                lambda: AsyncClient(self.base_url, self.api_key, timeout=self.timeout)
            )
        return self._async_clients.get()

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        vector = self.embedding.embed_query(query) if self.embedding else None
        client = self._sync_client()
        result = client.search(self._request(query, vector, kwargs))
        return [as_document(hit) for hit in hits(client, self.collection, result.rows)]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        vector = await self.embedding.aembed_query(query) if self.embedding else None
        client = self._aclient()
        result = await client.search(self._request(query, vector, kwargs))
        return [as_document(hit) for hit in await ahits(client, self.collection, result.rows)]


def as_document(hit: Hit) -> Document:
    row = hit.row
    about = {"score": row.score, "doc_id": row.doc_id, "chunk_id": row.chunk_id, "src": row.src,
             "created_at": row.created_at}  # fmt: skip
    return Document(id=row.chunk_id, page_content=row.chunk,
                    metadata={**hit.metadata, "ragsearch": about})  # fmt: skip
