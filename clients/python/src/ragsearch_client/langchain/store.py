"""RagsearchVectorStore: a LangChain VectorStore over a ragsearch collection."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import httpx
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import VectorStore

from ragsearch_client._hits import ahits, aread_document, hits, read_document
from ragsearch_client._http import Retries
from ragsearch_client._per_loop import PerLoop
from ragsearch_client.async_client import AsyncClient
from ragsearch_client.client import DEFAULT_URL, Client, Consistency
from ragsearch_client.errors import NotFoundError
from ragsearch_client.langchain._convert import documents_in, from_hit, from_stored, ids_for
from ragsearch_client.models import SearchRequest

# The service embeds documents (in every space that has an embedder): a store may leave
# embedding to it.
SERVER_EMBEDS_DOCUMENTS = True
# Similarity search ranks by similarity alone, as LangChain's stores do (a text query
# without a vector: by the service's relevance, its embedder's similarity and keywords);
# any search option given to the store or to a call (weights, recency, ...) changes that.
RELEVANCE_ONLY = {"w_rec": 0.0, "w_sig": 0.0, "max_per_source": 0}


class RagsearchVectorStore(VectorStore):
    """The documents of one ragsearch ``collection`` as a LangChain VectorStore.

    Each LangChain document is stored as a ragsearch document of one chunk, whose
    doc_id and chunk_id are the LangChain id; its metadata is the document's metadata,
    which ``filter`` (MongoDB's query language: ``{"year": {"$gte": 2020}}``) reads.

    ``embedding`` embeds texts and queries on the client, into ``space`` (default: the
    service's default space). With ``embedding=None`` the store sends texts alone and
    queries as text: the service embeds them with its spaces' embedders (and ranks by
    keywords where it has none).

    Searches rank by similarity alone unless ``search_options`` (any field of a search
    request: ``w_rec``, ``recency``, ``profile``, ``max_per_source``, ...) or a call's
    keyword arguments say otherwise; ``keywords=True`` also sends the query text, so that
    keyword relevance (BM25) takes part. MMR is the service's diversity re-ranking
    (``diversity_factor = 1 - lambda_mult``) over its candidates; ``fetch_k`` is unused.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: str | None = None,
        *,
        collection: str = "default",
        embedding: Embeddings | None = None,
        space: str | None = None,
        search_options: dict[str, Any] | None = None,
        keywords: bool = False,
        timeout: float | httpx.Timeout = 30.0,
        retries: Retries | None = None,
        consistency: Consistency | None = None,
    ) -> None:
        self.collection = collection
        self.embedding = embedding
        self.space = space
        self.search_options = dict(search_options or {})
        self.keywords = keywords
        settings: dict[str, Any] = {"timeout": timeout, "retries": retries,
                                    "consistency": consistency}  # fmt: skip
        self.client = Client(base_url, api_key, **settings)
        self._async_clients = PerLoop(lambda: AsyncClient(base_url, api_key, **settings))

    def async_client(self) -> AsyncClient:
        """The AsyncClient of the running event loop."""
        return self._async_clients.get()

    @property
    def embeddings(self) -> Embeddings | None:
        return self.embedding

    # ---- adding ------------------------------------------------------------------------

    def add_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Store texts (replacing the documents of the ids given); their ids."""
        texts = list(texts)
        doc_ids = ids_for(len(texts), ids)
        vectors = self.embedding.embed_documents(texts) if self.embedding else None
        documents = documents_in(self.collection, texts, metadatas, doc_ids, vectors, self.space)
        self.client.ingest(documents, **kwargs)
        return doc_ids

    async def aadd_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        texts = list(texts)
        doc_ids = ids_for(len(texts), ids)
        vectors = await self.embedding.aembed_documents(texts) if self.embedding else None
        documents = documents_in(self.collection, texts, metadatas, doc_ids, vectors, self.space)
        await self.async_client().ingest(documents, **kwargs)
        return doc_ids

    @classmethod
    def from_texts(
        cls,
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> RagsearchVectorStore:
        store = cls(embedding=embedding, **kwargs)
        store.add_texts(texts, metadatas, ids=ids)
        return store

    # ---- reading and deleting ----------------------------------------------------------

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        found = (read_document(self.client, self.collection, doc_id) for doc_id in ids)
        return [from_stored(document) for document in found if document is not None]

    async def aget_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        found = [await aread_document(self.async_client(), self.collection, d) for d in ids]
        return [from_stored(document) for document in found if document is not None]

    def delete(self, ids: list[str] | None = None, **kwargs: Any) -> bool:
        """Delete these documents (ids not stored are ignored)."""
        for doc_id in require_ids(ids):
            with contextlib.suppress(NotFoundError):
                self.client.delete_document(doc_id, collection=self.collection)
        return True

    async def adelete(self, ids: list[str] | None = None, **kwargs: Any) -> bool:
        for doc_id in require_ids(ids):
            with contextlib.suppress(NotFoundError):
                await self.async_client().delete_document(doc_id, collection=self.collection)
        return True

    # ---- searching ---------------------------------------------------------------------

    def _request(
        self, vector: list[float] | None, query: str | None, k: int, options: dict[str, Any]
    ) -> SearchRequest:
        fields: dict[str, Any] = {"collection": self.collection, "k": k, **RELEVANCE_ONLY}
        if vector is not None:
            fields["w_cos"] = 1.0
        fields.update(self.search_options)
        fields.update({name: value for name, value in options.items() if value is not None})
        if vector is not None:
            vector = [float(value) for value in vector]
            fields.update({"embedding": vector} if self.space is None
                          else {"embeddings": {self.space: vector}})  # fmt: skip
        if query is not None and (self.keywords or vector is None):
            fields["query"] = query
        return SearchRequest.model_validate(fields)

    def _search(
        self, vector: list[float] | None, query: str | None, k: int, options: dict[str, Any]
    ) -> list[tuple[Document, float]]:
        result = self.client.search(self._request(vector, query, k, options))
        return [(from_hit(hit), hit.score) for hit in hits(self.client, self.collection,
                                                            result.rows)]  # fmt: skip

    async def _asearch(
        self, vector: list[float] | None, query: str | None, k: int, options: dict[str, Any]
    ) -> list[tuple[Document, float]]:
        result = await self.async_client().search(self._request(vector, query, k, options))
        found = await ahits(self.async_client(), self.collection, result.rows)
        return [(from_hit(hit), hit.score) for hit in found]

    def _embed_query(self, query: str) -> list[float] | None:
        return self.embedding.embed_query(query) if self.embedding else None

    async def _aembed_query(self, query: str) -> list[float] | None:
        return await self.embedding.aembed_query(query) if self.embedding else None

    def similarity_search_with_score(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Documents with their score (the similarity, unless options weigh more)."""
        return self._search(self._embed_query(query), query, k, kwargs)

    async def asimilarity_search_with_score(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        return await self._asearch(await self._aembed_query(query), query, k, kwargs)

    def similarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Document]:
        return [document for document, _ in self.similarity_search_with_score(query, k, **kwargs)]

    async def asimilarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Document]:
        found = await self.asimilarity_search_with_score(query, k, **kwargs)
        return [document for document, _ in found]

    def similarity_search_by_vector(
        self, embedding: list[float], k: int = 4, **kwargs: Any
    ) -> list[Document]:
        return [document for document, _ in self._search(embedding, None, k, kwargs)]

    async def asimilarity_search_by_vector(
        self, embedding: list[float], k: int = 4, **kwargs: Any
    ) -> list[Document]:
        return [document for document, _ in await self._asearch(embedding, None, k, kwargs)]

    def max_marginal_relevance_search(
        self, query: str, k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5, **kwargs: Any
    ) -> list[Document]:
        options = {**kwargs, "diversity_factor": 1.0 - lambda_mult}
        return [doc for doc, _ in self._search(self._embed_query(query), query, k, options)]

    async def amax_marginal_relevance_search(
        self, query: str, k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5, **kwargs: Any
    ) -> list[Document]:
        options = {**kwargs, "diversity_factor": 1.0 - lambda_mult}
        vector = await self._aembed_query(query)
        return [doc for doc, _ in await self._asearch(vector, query, k, options)]

    def max_marginal_relevance_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        **kwargs: Any,
    ) -> list[Document]:
        options = {**kwargs, "diversity_factor": 1.0 - lambda_mult}
        return [doc for doc, _ in self._search(embedding, None, k, options)]

    async def amax_marginal_relevance_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        **kwargs: Any,
    ) -> list[Document]:
        options = {**kwargs, "diversity_factor": 1.0 - lambda_mult}
        return [doc for doc, _ in await self._asearch(embedding, None, k, options)]

    def _select_relevance_score_fn(self) -> Callable[[float], float]:
        """Scores are similarities (or blends) in [0,1] already; below 0 counts as 0."""
        return lambda score: min(1.0, max(0.0, score))


def require_ids(ids: list[str] | None) -> list[str]:
    if ids is None:
        raise ValueError("delete needs the ids to delete (deleting everything is not offered)")
    return ids
