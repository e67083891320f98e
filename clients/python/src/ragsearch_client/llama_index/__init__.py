"""LlamaIndex integration (``pip install 'ragsearch-client[llama-index]'``): a vector store
over a ragsearch collection, and a retriever with every search option."""

from ragsearch_client.llama_index.filters import to_filter
from ragsearch_client.llama_index.retriever import RagsearchRetriever
from ragsearch_client.llama_index.store import RagsearchVectorStore

__all__ = ["RagsearchRetriever", "RagsearchVectorStore", "to_filter"]
