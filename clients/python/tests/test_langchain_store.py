"""What the LangChain integration adds to the standard suites: filters, scores, MMR,
search options, the retriever's options, a store in its own space."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

from ragsearch_client.langchain import RagsearchRetriever, RagsearchVectorStore
from support import WRITE_KEY, unit

EMBEDDING = DeterministicFakeEmbedding(size=6)


@pytest.fixture
def store(base_url, collection):
    return RagsearchVectorStore(base_url, WRITE_KEY, collection=collection, embedding=EMBEDDING)


def add_three(store):
    return store.add_documents(
        [
            Document(page_content=text, metadata={"lang": lang, "year": year})
            for text, lang, year in [
                ("alpha", "en", 2020),
                ("beta", "fr", 2022),
                ("gamma", "en", 2024),
            ]
        ],
        ids=["a", "b", "c"],
    )


def test_filter_and_scores(store):
    add_three(store)
    found = store.similarity_search_with_score("alpha", k=3, filter={"lang": "en"})
    assert [doc.id for doc, _ in found] == ["a", "c"]
    assert found[0][1] == pytest.approx(1.0, abs=1e-5)  # alpha's own vector
    assert found[0][0].metadata == {"lang": "en", "year": 2020}
    newer = store.similarity_search("alpha", k=3, filter={"year": {"$gte": 2022}})
    assert {doc.id for doc in newer} == {"b", "c"}
    relevance = store.similarity_search_with_relevance_scores("alpha", k=3)
    assert all(0.0 <= score <= 1.0 for _, score in relevance)


def test_by_vector_and_mmr(store):
    add_three(store)
    vector = EMBEDDING.embed_query("gamma")
    assert store.similarity_search_by_vector(vector, k=1)[0].id == "c"
    diverse = store.max_marginal_relevance_search("gamma", k=2, lambda_mult=0.0)
    assert len(diverse) == 2 and diverse[0].id == "c"


def test_search_options_change_the_ranking(base_url, collection, client):
    now = datetime.now(UTC)
    for n, age_days in enumerate([0, 3000]):
        client.put_document(
            collection=collection, doc_id=f"d{n}",
            chunks=[{"chunk_id": f"d{n}", "chunk": f"t{n}", "embedding": unit(7),
                     "created_at": (now - timedelta(days=age_days)).isoformat()}],
        )  # fmt: skip
    fresh_first = RagsearchVectorStore(
        base_url, WRITE_KEY, collection=collection, embedding=EMBEDDING,
        search_options={"w_cos": 0.5, "w_rec": 0.5},
    )  # fmt: skip
    ranked = fresh_first.similarity_search_with_score("anything", k=2)
    assert [doc.id for doc, _ in ranked] == ["d0", "d1"]
    assert ranked[0][1] > ranked[1][1]
    similarity_only = fresh_first.similarity_search_with_score("x", k=2, w_rec=0.0, w_cos=1.0)
    assert similarity_only[0][1] == pytest.approx(similarity_only[1][1])  # the same vector


def test_a_store_in_its_own_space(base_url, client, collection):
    space = f"s{uuid.uuid4().hex[:8]}"
    client.register_space(space, 6)
    try:
        store = RagsearchVectorStore(base_url, WRITE_KEY, collection=collection,
                                     embedding=EMBEDDING, space=space)  # fmt: skip
        store.add_texts(["one", "two"], ids=["1", "2"])
        stored = client.get_document("1", collection=collection, include_embeddings=True)
        assert stored.chunks[0].spaces == [space]
        assert store.similarity_search("two", k=1)[0].id == "2"
    finally:
        client.drop_space(space)


def test_get_by_ids_reads_a_document_of_several_chunks(store, client, collection):
    client.put_document(collection=collection, doc_id="long", metadata={"m": 1},
                        chunks=[{"chunk": "first"}, {"chunk": "second"}])  # fmt: skip
    (document,) = store.get_by_ids(["long", "missing"])
    assert document == Document(id="long", page_content="first\n\nsecond", metadata={"m": 1})


def test_delete_without_ids_is_refused(store):
    with pytest.raises(ValueError, match="ids"):
        store.delete()


def test_as_retriever(store):
    add_three(store)
    retriever = store.as_retriever(search_kwargs={"k": 1, "filter": {"lang": "fr"}})
    assert [doc.id for doc in retriever.invoke("alpha")] == ["b"]


async def test_async_variants(store):
    await store.aadd_texts(["x", "y"], [{"v": 1}, {"v": 2}], ids=["x", "y"])
    found = await store.asimilarity_search_with_score("y", k=1, filter={"v": 2})
    assert found[0][0] == Document(id="y", page_content="y", metadata={"v": 2})
    assert next(d.id for d in await store.amax_marginal_relevance_search("x", k=2)) == "x"


def test_retriever_with_weights_filter_and_metadata(base_url, collection, client):
    for n in range(4):
        client.put_document(
            collection=collection, doc_id=f"doc{n}", src=f"https://site/{n % 2}",
            metadata={"team": "a" if n < 2 else "b"},
            chunks=[{"chunk_id": f"c{n}", "chunk": f"kubernetes ingress rule {n}",
                     "metadata": {"part": n}, "embedding": unit(n)}],
        )  # fmt: skip
    retriever = RagsearchRetriever(base_url=base_url, api_key=WRITE_KEY, collection=collection,
                                   k=3, w_lex=1.0, w_cos=0.0, filter={"team": "b"})  # fmt: skip
    documents = retriever.invoke("kubernetes ingress")
    assert {doc.id for doc in documents} == {"c2", "c3"}
    assert documents[0].metadata["team"] == "b" and "part" in documents[0].metadata
    about = documents[0].metadata["ragsearch"]
    assert about["doc_id"] in {"doc2", "doc3"} and about["score"] > 0
    one = retriever.invoke("kubernetes ingress", k=1, filter={"team": "a"})
    assert len(one) == 1 and one[0].metadata["team"] == "a"
    per_source = RagsearchRetriever(base_url=base_url, api_key=WRITE_KEY, collection=collection,
                                    k=4, max_per_source=1, w_lex=1.0, w_cos=0.0)  # fmt: skip
    assert len(per_source.invoke("kubernetes")) == 2  # two sources, one row each


def test_without_an_embedding_texts_and_queries_go_to_the_service(base_url, collection, client):
    """The service embeds documents: texts are sent alone and queries as text (found
    here by keywords, as this service has no embedder)."""
    store = RagsearchVectorStore(base_url, WRITE_KEY, collection=collection)
    store.add_texts(["postgres ranks chunks", "graphs of vectors"], ids=["p", "g"])
    assert client.get_document("p", collection=collection).chunks[0].spaces == []
    assert [doc.id for doc in store.similarity_search("vectors", k=2)] == ["g"]
