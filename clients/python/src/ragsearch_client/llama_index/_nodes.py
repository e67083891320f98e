"""Between LlamaIndex nodes and ragsearch documents: the nodes of one source document
(ref_doc_id) are the chunks of one ragsearch document, so that deleting the source
deletes them all; each chunk's id is the node id and its metadata the node's (with the
node itself, for rebuilding it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.schema import BaseNode, MetadataMode, TextNode
from llama_index.core.vector_stores.utils import metadata_dict_to_node, node_to_metadata_dict

from ragsearch_client._hits import Hit
from ragsearch_client.models import DocumentIn, DocumentResponse, StoredChunk


def doc_id_of(node: BaseNode) -> str:
    return node.ref_doc_id or node.node_id


def by_document(nodes: Sequence[BaseNode]) -> dict[str, list[BaseNode]]:
    grouped: dict[str, list[BaseNode]] = {}
    for node in nodes:
        grouped.setdefault(doc_id_of(node), []).append(node)
    return grouped


def chunk_of(node: BaseNode, space: str | None) -> dict[str, Any]:
    vector = [float(value) for value in node.get_embedding()]
    return {
        "chunk_id": node.node_id,
        "chunk": node.get_content(metadata_mode=MetadataMode.NONE),
        "metadata": node_to_metadata_dict(node, remove_text=True, flat_metadata=False),
        **({"embedding": vector} if space is None else {"embeddings": {space: vector}}),
    }


def kept_chunk(chunk: StoredChunk) -> dict[str, Any]:
    """A stored chunk as it is sent again (with its vectors, signals and age)."""
    kept: dict[str, Any] = {
        "chunk_id": chunk.chunk_id, "chunk": chunk.chunk, "created_at": chunk.created_at,
        "volume": chunk.volume, "confidence": chunk.confidence, "model": chunk.model,
        "tags": chunk.tags, "metadata": chunk.metadata, "embeddings": chunk.embeddings or {},
    }  # fmt: skip
    if chunk.signal_pinned:
        kept["signal"] = chunk.signal
    return kept


def document_of(
    collection: str,
    doc_id: str,
    nodes: Sequence[BaseNode],
    stored: DocumentResponse | None,
    space: str | None,
) -> DocumentIn:
    """The document with these nodes, and the chunks it had that they do not replace
    (storing a document replaces all its chunks)."""
    new_ids = {node.node_id for node in nodes}
    kept = [kept_chunk(c) for c in (stored.chunks if stored else []) if c.chunk_id not in new_ids]
    body: dict[str, Any] = {"collection": collection, "doc_id": doc_id,
                            "chunks": kept + [chunk_of(node, space) for node in nodes]}  # fmt: skip
    if stored is not None:
        body.update(src=stored.src, title=stored.title, metadata=stored.metadata,
                    tags=stored.tags, category=stored.category)  # fmt: skip
    return DocumentIn.model_validate(body)


def node_of(hit: Hit) -> BaseNode:
    """The node a row was stored from; a chunk stored some other way becomes a TextNode."""
    if "_node_content" in hit.metadata:
        try:
            return metadata_dict_to_node(hit.metadata, text=hit.text)
        except (ValueError, TypeError):
            pass
    return TextNode(id_=hit.row.chunk_id, text=hit.text, metadata=hit.metadata)
