"""ragsearch_client: a typed client for the ragsearch service.

    from ragsearch_client import Client

    with Client("http://127.0.0.1:8000", api_key="...") as rag:
        rows = rag.search(embedding=[...], k=5, w_rec=0.2, filter={"lang": "en"}).rows

The LangChain and LlamaIndex integrations are ragsearch_client.langchain and
ragsearch_client.llama_index (extras ``[langchain]`` and ``[llama-index]``).
"""

__version__ = "0.1.0"

from ragsearch_client._bulk import BulkIngestError, IngestProgress
from ragsearch_client._http import Retries
from ragsearch_client.async_client import AsyncClient
from ragsearch_client.client import Client
from ragsearch_client.errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    GatewayTimeoutError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RagsearchError,
    RateLimitedError,
    ServerError,
    TransportError,
    UnavailableError,
)

__all__ = [
    "APIError",
    "AsyncClient",
    "AuthenticationError",
    "BadRequestError",
    "BulkIngestError",
    "Client",
    "ConflictError",
    "GatewayTimeoutError",
    "IngestProgress",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RagsearchError",
    "RateLimitedError",
    "Retries",
    "ServerError",
    "TransportError",
    "UnavailableError",
    "__version__",
]
