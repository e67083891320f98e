"""LangChain's own standard suites, unmodified, against the real service: every test of
VectorStoreIntegrationTests (sync and async, get_by_ids included) and of
RetrieversIntegrationTests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.vectorstores import VectorStore
from langchain_tests.integration_tests import (
    RetrieversIntegrationTests,
    VectorStoreIntegrationTests,
)

from ragsearch_client import Client
from ragsearch_client.langchain import RagsearchRetriever, RagsearchVectorStore
from support import WRITE_KEY

RETRIEVER: dict[str, Any] = {}  # the constructor parameters, once the service is up
QUERY = "how does weighted retrieval rank chunks"


class TestRagsearchVectorStore(VectorStoreIntegrationTests):
    @pytest.fixture
    def vectorstore(self, client: Client, base_url: str) -> Iterator[VectorStore]:
        """An empty store: a collection of its own, deleted afterwards."""
        name = f"lc{uuid.uuid4().hex[:12]}"
        client.create_collection(name)
        store = RagsearchVectorStore(
            base_url, WRITE_KEY, collection=name, embedding=self.get_embeddings()
        )
        try:
            yield store
        finally:
            client.delete_collection(name)


@pytest.fixture(scope="module", autouse=True)
def retriever_corpus(base_url: str) -> Iterator[None]:
    """A collection of five documents that all match the example query's words."""
    name = f"lr{uuid.uuid4().hex[:12]}"
    with Client(base_url, WRITE_KEY) as rag:
        rag.create_collection(name)
        store = RagsearchVectorStore(base_url, WRITE_KEY, collection=name,
                                     embedding=DeterministicFakeEmbedding(size=6))  # fmt: skip
        store.add_texts(
            [f"weighted retrieval ranks chunks, note {n}" for n in range(5)],
            [{"n": n} for n in range(5)],
        )
        RETRIEVER.update(base_url=base_url, api_key=WRITE_KEY, collection=name,
                         embedding=DeterministicFakeEmbedding(size=6))  # fmt: skip
        yield
        rag.delete_collection(name)


class TestRagsearchRetriever(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[RagsearchRetriever]:
        return RagsearchRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return dict(RETRIEVER)

    @property
    def retriever_query_example(self) -> str:
        return QUERY
