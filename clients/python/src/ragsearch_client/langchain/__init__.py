"""LangChain integration (``pip install 'ragsearch-client[langchain]'``): a VectorStore
over a ragsearch collection, and a retriever with every search option."""

from ragsearch_client.langchain.retriever import RagsearchRetriever
from ragsearch_client.langchain.store import RagsearchVectorStore

__all__ = ["RagsearchRetriever", "RagsearchVectorStore"]
