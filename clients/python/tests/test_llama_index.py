"""The LlamaIndex store and retriever against the real service: an index built over the
store answers as REST does; nodes round-trip; filters, modes and deletion map."""

from __future__ import annotations

import hashlib
import math

import pytest
from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
)

from ragsearch_client.llama_index import RagsearchRetriever, RagsearchVectorStore, to_filter
from support import DIMS, WRITE_KEY


class HashEmbedding(BaseEmbedding):
    """Deterministic: each word adds a fixed pseudo-random vector; the sum, normalised."""

    def _vector(self, text: str) -> list[float]:
        total = [0.0] * DIMS
        for word in text.lower().split():
            digest = hashlib.sha256(word.strip(".,?").encode()).digest()
            for i in range(DIMS):
                total[i] += digest[i] / 255 - 0.5
        norm = math.sqrt(sum(v * v for v in total)) or 1.0
        return [v / norm for v in total]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)


TEXTS = {
    "pg": ("PostgreSQL stores the chunks and computes the ranking", {"topic": "db", "year": 2021}),
    "hnsw": ("HNSW indexes find near vectors fast", {"topic": "index", "year": 2023}),
    "bm25": ("BM25 scores keyword matches of the query", {"topic": "keywords", "year": 2024}),
}


@pytest.fixture
def store(base_url, collection):
    return RagsearchVectorStore(base_url=base_url, api_key=WRITE_KEY, collection=collection)


@pytest.fixture
def index(store):
    documents = [Document(text=text, metadata=meta, id_=doc_id)
                 for doc_id, (text, meta) in TEXTS.items()]  # fmt: skip
    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex.from_documents(documents, storage_context=context,
                                           embed_model=HashEmbedding())  # fmt: skip


def test_an_index_answers_as_rest_does(index, client, collection):
    question = "which index finds near vectors"
    retrieved = index.as_retriever(similarity_top_k=2).retrieve(question)
    rest = client.search(collection=collection, embedding=HashEmbedding()._vector(question),
                         k=2, w_cos=1.0, w_rec=0.0, w_sig=0.0, max_per_source=0)  # fmt: skip
    assert [n.node.node_id for n in retrieved] == [row.chunk_id for row in rest.rows]
    assert [n.score for n in retrieved] == pytest.approx([row.score for row in rest.rows])
    assert retrieved[0].node.ref_doc_id == "hnsw"
    assert retrieved[0].node.metadata == TEXTS["hnsw"][1]
    assert retrieved[0].node.get_content() == TEXTS["hnsw"][0]


def test_filters_and_doc_ids(index, store):
    vector = HashEmbedding()._vector("chunks")
    newer = MetadataFilters(filters=[MetadataFilter(key="year", value=2022,
                                                    operator=FilterOperator.GTE)])  # fmt: skip
    found = store.query(VectorStoreQuery(query_embedding=vector, similarity_top_k=3,
                                         filters=newer))  # fmt: skip
    assert {node.ref_doc_id for node in found.nodes} == {"hnsw", "bm25"}
    either = MetadataFilters(
        filters=[MetadataFilter(key="topic", value="db"),
                 MetadataFilter(key="topic", value=["keywords"], operator=FilterOperator.IN)],
        condition=FilterCondition.OR,
    )  # fmt: skip
    found = store.query(VectorStoreQuery(query_embedding=vector, similarity_top_k=3,
                                         filters=either))  # fmt: skip
    assert {node.ref_doc_id for node in found.nodes} == {"pg", "bm25"}
    only = store.query(VectorStoreQuery(query_embedding=vector, similarity_top_k=3,
                                        doc_ids=["pg"]))  # fmt: skip
    assert [node.ref_doc_id for node in only.nodes] == ["pg"]


def test_filter_translation():
    nested = MetadataFilters(
        filters=[
            MetadataFilter(key="a", value=1, operator=FilterOperator.NE),
            MetadataFilters(filters=[MetadataFilter(key="t", value=["x", "y"],
                                                    operator=FilterOperator.ALL)],
                            condition=FilterCondition.NOT),
            MetadataFilter(key="tags", value="z", operator=FilterOperator.CONTAINS),
            MetadataFilter(key="gone", value=None, operator=FilterOperator.IS_EMPTY),
        ]
    )  # fmt: skip
    assert to_filter(nested) == {"$and": [
        {"a": {"$ne": 1}},
        {"$not": {"$and": [{"$and": [{"t": "x"}, {"t": "y"}]}]}},
        {"tags": "z"},
        {"$or": [{"gone": {"$exists": False}}, {"gone": None}]},
    ]}  # fmt: skip
    text_match = MetadataFilter(key="a", value="b", operator=FilterOperator.TEXT_MATCH)
    with pytest.raises(ValueError, match="text_match"):
        to_filter(MetadataFilters(filters=[text_match]))


def test_text_and_hybrid_modes(index, store):
    text = store.query(VectorStoreQuery(query_str="keyword matches", similarity_top_k=3,
                                        mode=VectorStoreQueryMode.TEXT_SEARCH))  # fmt: skip
    assert [node.ref_doc_id for node in text.nodes] == ["bm25"]
    vector = HashEmbedding()._vector("near vectors")
    hybrid = store.query(VectorStoreQuery(query_str="keyword matches", query_embedding=vector,
                                          similarity_top_k=3, alpha=0.0,
                                          mode=VectorStoreQueryMode.HYBRID))  # fmt: skip
    assert hybrid.nodes[0].ref_doc_id == "bm25"  # alpha 0: keywords alone lead
    with pytest.raises(ValueError, match="svm"):
        store.query(VectorStoreQuery(query_embedding=vector, mode=VectorStoreQueryMode.SVM))


def test_delete_by_ref_doc_and_adding_nodes_to_a_document(index, store, client, collection):
    store.delete("pg")
    assert client.stats(collection).documents == 2
    vector = HashEmbedding()._vector("more")
    extra = TextNode(id_="hnsw-extra", text="more about graphs", embedding=vector,
                     metadata={"topic": "index"})  # fmt: skip
    extra.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id="hnsw")
    store.add([extra])
    stored = client.get_document("hnsw", collection=collection)
    assert len(stored.chunks) == 2  # the node added joined the ones the document had
    store.delete("hnsw")
    store.delete("hnsw")  # nothing left: no error
    assert client.stats(collection).documents == 1


def test_retriever_with_search_options(index, store):
    retriever = RagsearchRetriever(store, k=2, embed_model=HashEmbedding(), w_lex=0.5,
                                   w_rec=0.0, w_sig=0.0,
                                   filter={"topic": {"$in": ["db", "keywords"]}})  # fmt: skip
    found = retriever.retrieve("keyword matches of the query")
    assert [n.node.ref_doc_id for n in found] == ["bm25", "pg"]
    assert found[0].score > found[1].score
    with pytest.raises(ValueError, match="not_an_option"):
        RagsearchRetriever(store, not_an_option=1)


async def test_async_paths(store, client, collection):
    node = TextNode(id_="n1", text="async text", embedding=HashEmbedding()._vector("async"),
                    metadata={"m": "x"})  # fmt: skip
    assert await store.async_add([node]) == ["n1"]
    found = await store.aquery(VectorStoreQuery(query_embedding=node.embedding,
                                                similarity_top_k=1))  # fmt: skip
    assert found.ids == ["n1"] and found.nodes[0].metadata == {"m": "x"}
    retrieved = await RagsearchRetriever(store, k=1, embed_model=HashEmbedding()).aretrieve("async")
    assert retrieved[0].node.node_id == "n1"
    await store.adelete("n1")
    assert client.stats(collection).documents == 0
