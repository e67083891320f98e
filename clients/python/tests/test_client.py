"""Every endpoint through the synchronous client, against the real service, errors too."""

from __future__ import annotations

import uuid

import pytest

from ragsearch_client import (
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    models,
)
from support import READ_KEY, unit


def store_three(client: Client, collection: str) -> None:
    for n, lang in enumerate(["en", "fr", "en"]):
        client.put_document(
            collection=collection,
            doc_id=f"doc-{n}",
            src=f"https://example.test/{n}",
            title=f"Document {n}",
            metadata={"lang": lang, "n": n},
            chunks=[{"chunk_id": f"chunk-{n}", "chunk": f"text number {n}", "embedding": unit(n)}],
        )


def test_documents_round_trip_with_odd_ids(client, collection):
    doc_id = "a/b?c#d%e f/.."
    stored = client.put_document(
        collection=collection,
        doc_id=doc_id,
        metadata={"k": "v"},
        chunks=[{"chunk": "hello", "embedding": unit(1), "tags": ["x"]}],
    )
    assert (stored.doc_id, stored.chunks, stored.vectors) == (doc_id, 1, {"default": 1})
    read = client.get_document(doc_id, collection=collection, include_embeddings=True)
    assert read.doc_id == doc_id and read.metadata == {"k": "v"}
    assert read.chunks[0].chunk == "hello" and read.chunks[0].tags == ["x"]
    assert read.chunks[0].embeddings is not None
    assert read.chunks[0].embeddings["default"] == pytest.approx(unit(1), abs=1e-6)
    deleted = client.delete_document(doc_id, collection=collection)
    assert deleted.deleted_chunks == 1
    with pytest.raises(NotFoundError) as caught:
        client.get_document(doc_id, collection=collection)
    assert caught.value.status_code == 404 and doc_id in caught.value.body["error"]


def test_document_of_dots_alone_is_not_a_path_step(client, collection):
    client.put_document(collection=collection, doc_id="..", chunks=[{"chunk": "dots"}])
    assert client.get_document("..", collection=collection).chunks[0].chunk == "dots"


def test_search_with_weights_filter_and_explain(client, collection):
    store_three(client, collection)
    result = client.search(
        collection=collection,
        embedding=unit(0),
        k=3,
        w_cos=0.8,
        w_rec=0.1,
        w_sig=0.1,
        filter={"lang": "en"},
        explain=True,
    )
    assert isinstance(result, models.SearchResponse)
    assert [row.doc_id for row in result.rows] == ["doc-0", "doc-2"]
    assert result.rows[0].components is not None and "sem" in result.rows[0].components
    assert result.query_metadata.collection == collection
    why = client.explain(collection=collection, embedding=unit(0), chunk_id="chunk-1",
                         filter={"lang": "en"})  # fmt: skip
    assert why.stage == "filter" and why.rank is None
    included = client.explain(collection=collection, embedding=unit(0), chunk_id="chunk-0")
    assert (included.stage, included.rank) == ("included", 1)


def test_facets_count_the_chunks_a_search_ranks_from(client, collection):
    store_three(client, collection)
    counted = client.facets(collection=collection, fields=["src", "metadata.lang"], limit=5)
    assert isinstance(counted, models.FacetsResponse)
    assert (counted.counted, counted.chunks, counted.exact) == ("filtered", 3, True)
    langs = {value.value: value.chunks for value in counted.facets["metadata.lang"].values}
    assert langs == {"en": 2, "fr": 1}
    english = client.facets(collection=collection, filter={"lang": "en"}, fields=["doc_id"])
    assert [v.value for v in english.facets["doc_id"].values] == ["doc-0", "doc-2"]
    assert english.facets["doc_id"].refines == "doc_ids"


def test_a_request_model_and_keyword_fields_combine(client, collection):
    store_three(client, collection)
    request = models.SearchRequest(collection=collection, embedding=unit(2), k=1)
    assert client.search(request).rows[0].doc_id == "doc-2"
    wider = client.search(request, k=2)
    assert wider.k == 2 and len(wider.rows) == 2 and wider.rows[0].doc_id == "doc-2"
    assert request.k == 1  # the model given is not changed


def test_space_and_purpose_search(client, collection):
    store_three(client, collection)
    nearest = client.search_space("default", collection=collection, query_embedding=unit(1))
    assert nearest.results[0].doc_id == "doc-1"
    assert nearest.results[0].similarity == pytest.approx(1.0, abs=1e-5)
    goal = f"g{uuid.uuid4().hex[:8]}"
    put = client.put_goal(goal, embedding=unit(2), description="the third")
    assert put.name == goal and put.spaces == ["default"]
    assert goal in [g.name for g in client.list_goals().goals]
    read = client.get_goal(goal, include_embeddings=True)
    assert read.embeddings is not None and len(read.embeddings["default"]) == 6
    aligned = client.search_purpose(collection=collection, goal=goal, top_k=1)
    assert aligned.goal == goal and aligned.results[0].doc_id == "doc-2"
    assert client.delete_goal(goal).deleted == goal
    with pytest.raises(NotFoundError):
        client.get_goal(goal)


def test_collections_spaces_and_stats(client):
    name = f"c{uuid.uuid4().hex[:10]}"
    created = client.create_collection(name, "for a test")
    assert created.collection.name == name and created.collection.description == "for a test"
    assert name in [c.name for c in client.list_collections().collections]
    with pytest.raises(ConflictError) as caught:
        client.create_collection(name)
    assert caught.value.status_code == 409
    client.put_document(collection=name, doc_id="d", chunks=[{"chunk": "x", "tags": ["t"]}])
    detail = client.get_collection(name).collection
    assert (detail.documents, detail.chunks, detail.top_tags[0].tag) == (1, 1, "t")
    assert client.stats(name).chunks == 1
    assert client.delete_collection(name).deleted_chunks == 1

    space = f"s{uuid.uuid4().hex[:10]}"
    registered = client.register_space(space, 3, model="tiny", description="three")
    assert (registered.space.name, registered.space.dims) == (space, 3)
    assert space in [s.name for s in client.list_spaces().spaces]
    assert client.drop_space(space).dropped == space


def test_signals(client, collection):
    store_three(client, collection)
    answer = client.update_signals(
        collection=collection,
        updates=[{"chunk_id": "chunk-0", "signal": 0.9}, {"chunk_id": "chunk-1", "add_volume": 2}],
    )
    states = {s.chunk_id: s for s in answer.chunks}
    assert answer.updated == 2 and states["chunk-0"].signal == pytest.approx(0.9)
    assert states["chunk-0"].signal_pinned
    with pytest.raises(NotFoundError):
        client.update_signals(collection=collection, updates=[{"chunk_id": "nope", "signal": 1}])


def test_profiles(client):
    name = f"p{uuid.uuid4().hex[:8]}"
    first = client.put_profile(name, w_cos=0.7, w_rec=0.3, description="first")
    assert (first.profile.version, first.profile.w_cos) == (1, 0.7)
    second = client.put_profile(
        name, models.ProfileIn(w_cos=0.5, recency={"function": "exponential", "half_life_days": 7})
    )
    assert second.profile.version == 2 and second.profile.recency is not None
    assert client.get_profile(name, version=1).profile.description == "first"
    assert [v.version for v in client.profile_versions(name).versions] == [1, 2]
    assert name in [p.name for p in client.list_profiles().profiles]
    assert client.delete_profile(name).deleted == name


def test_examples_health_readiness_metrics(client):
    assert client.health().ok
    assert client.ready().ok
    examples = client.examples()
    assert examples.space == "minilm" and not examples.is_default_space  # 384 dims, not 6
    assert "inverse" in examples.recency_functions and examples.queries[0].text
    assert client.search_defaults().max_k == 50
    assert 'route="/healthz",status="200"' in client.metrics()


def test_bad_request_carries_the_field_and_rule(client, collection):
    with pytest.raises(BadRequestError) as caught:
        client.search(collection=collection, embedding=[1.0, 2.0], k=3)
    error = caught.value
    assert error.status_code == 400
    assert "embedding" in error.message and "6" in error.message
    assert error.body["error"] == error.message


def test_a_coded_error_says_its_explanation(client, collection):
    # the body's error is a code ("invalid_profile"); what to fix is in its message
    with pytest.raises(BadRequestError) as caught:
        client.search(collection=collection, embedding=unit(0), k=3, profile="nope")
    error = caught.value
    assert error.body["error"] == "invalid_profile"
    assert error.message.startswith("unknown profile 'nope'; valid profiles: ")
    assert "unknown profile 'nope'" in str(error)


def test_a_field_the_server_does_not_name_is_refused_before_sending(client):
    with pytest.raises(ValueError, match="not_a_field"):
        client.search({"embedding": unit(0), "not_a_field": 1})


def test_keys(base_url):
    with Client(base_url) as anonymous, pytest.raises(AuthenticationError) as caught:
        anonymous.list_collections()
    assert caught.value.status_code == 401
    with Client(base_url, api_key=READ_KEY) as reader:
        assert reader.list_collections().ok
        with pytest.raises(PermissionDeniedError) as denied:
            reader.put_document(doc_id="x", chunks=[{"chunk": "x"}])
    assert denied.value.status_code == 403


def test_files_and_jobs(client, collection):
    """Files in (stored before the answer, or queued as a job), a document queued as a
    job and waited for, and the jobs read and cancelled."""
    answer = client.upload([("notes.md", b"# Notes\n\nEspresso and tea.")], collection=collection,
                           options={"tags": ["notes"]})  # fmt: skip
    assert isinstance(answer, models.UploadResponse) and answer.failed == 0
    assert answer.documents[0].doc_id == "notes.md"
    job = client.upload([("later.txt", b"Stored by a job.")], collection=collection, run_async=True)
    assert isinstance(job, models.Job)
    done = client.wait_for_job(job.id)
    assert done.status == "done" and done.items and done.items[0].doc_id == "later.txt"
    queued = client.submit_document(doc_id="queued", collection=collection, text="Queued text.")
    assert client.wait_for_job(queued.id).progress.items.done == 1
    assert client.get_document("queued", collection=collection).chunks[0].chunk == "Queued text."
    assert queued.id in [j.id for j in client.list_jobs(collection=collection)]
    assert client.cancel_job(queued.id).status == "done"  # finished already: nothing to stop


def test_reembed_space(client):
    """A space given an embedder by re-embedding it: the job fills it and the space records
    the embedder once it is done."""
    name = f"r{uuid.uuid4().hex[:10]}"
    client.register_space(name, 384)
    job = client.reembed_space(name, embedder={"kind": "local"})
    assert job.kind == "reembed" and job.space == name
    assert client.wait_for_job(job.id).status == "done"
    space = next(s for s in client.list_spaces().spaces if s.name == name)
    assert space.embedder is not None and space.embedder.kind == "local"
    client.drop_space(name)
