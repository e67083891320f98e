"""The synchronous client: one typed method per endpoint (ragsearch_client.AsyncClient
has the same methods, awaitable)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import Any, Literal, TypeVar, Unpack

import httpx

from ragsearch_client import _calls, models
from ragsearch_client._bulk import (
    BulkIngestError,
    IngestProgress,
    ProgressCallback,
    batches,
)
from ragsearch_client._http import RETRIED_CONNECT_ERRORS, Call, Retries, decode, headers
from ragsearch_client._http import should_retry as _should_retry
from ragsearch_client._jobs import FINISHED, FileInput, read_files, stored_by
from ragsearch_client.errors import APIError, TransportError

T = TypeVar("T")
Consistency = Literal["replica", "primary"]
DEFAULT_URL = "http://127.0.0.1:8000"


class Client:
    """A ragsearch service at ``base_url``, with ``api_key`` (a key of RAG_API_KEYS,
    RAG_READ_KEYS or RAG_COLLECTION_KEYS; none when the service runs without keys).

    ``timeout`` is in seconds (or an httpx.Timeout); ``retries`` says how 429 and 503
    answers and failed connections are retried; ``consistency="primary"`` reads your own
    writes when the service has read replicas. Use it as a context manager, or close()."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        retries: Retries | None = None,
        consistency: Consistency | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.retries = retries or Retries()
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(timeout=timeout)
        self._headers = headers(api_key, consistency)

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def _run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = self._http.request(
                    call.method,
                    self.base_url + call.path,
                    params=call.params,
                    json=call.json,
                    files=call.files,
                    data=call.data,
                    headers=self._headers,
                )
            except RETRIED_CONNECT_ERRORS as error:
                if attempt >= self.retries.attempts:
                    raise TransportError(f"{call.method} {call.path}: {error}") from error
                time.sleep(self.retries.wait(attempt, None))
                attempt += 1
                continue
            except httpx.HTTPError as error:
                raise TransportError(f"{call.method} {call.path}: {error}") from error
            if not _should_retry(call, response, self.retries, attempt):
                return decode(call, response)
            time.sleep(self.retries.wait(attempt, response))
            attempt += 1

    # ---- search ----------------------------------------------------------------------

    def search(
        self,
        request: models.SearchRequest | models.SearchRequestFields | None = None,
        /,
        **fields: Unpack[models.SearchRequestFields],
    ) -> models.SearchResponse:
        """The top-k chunks by the weighted blend (POST /api/rag/search)."""
        return self._run(_calls.search(_calls.request_of(models.SearchRequest, request, fields)))

    def explain(
        self,
        request: models.ExplainRequest | models.ExplainRequestFields | None = None,
        /,
        **fields: Unpack[models.ExplainRequestFields],
    ) -> models.ExplainResponse:
        """Where one chunk ranks for a search, and what kept it out (POST /api/rag/explain)."""
        made = _calls.request_of(models.ExplainRequest, request, fields)
        return self._run(_calls.explain(made))

    def facets(
        self,
        request: models.FacetRequest | models.FacetRequestFields | None = None,
        /,
        **fields: Unpack[models.FacetRequestFields],
    ) -> models.FacetsResponse:
        """How many of the chunks a search ranks from hold each tag, source, document,
        metadata value or collection (POST /api/rag/facets)."""
        made = _calls.request_of(models.FacetRequest, request, fields)
        return self._run(_calls.facets(made))

    def search_space(
        self,
        space: str,
        request: models.SpaceSearchRequest | models.SpaceSearchRequestFields | None = None,
        /,
        **fields: Unpack[models.SpaceSearchRequestFields],
    ) -> models.SpaceSearchResponse:
        """Nearest chunks of one space by cosine (POST /api/rag/search/space/{space})."""
        made = _calls.request_of(models.SpaceSearchRequest, request, fields)
        return self._run(_calls.search_space(space, made))

    def search_purpose(
        self,
        request: models.PurposeSearchRequest | models.PurposeSearchRequestFields | None = None,
        /,
        **fields: Unpack[models.PurposeSearchRequestFields],
    ) -> models.PurposeSearchResponse:
        """Chunks by alignment to a goal or vector (POST /api/rag/search/purpose)."""
        made = _calls.request_of(models.PurposeSearchRequest, request, fields)
        return self._run(_calls.search_purpose(made))

    # ---- documents -------------------------------------------------------------------

    def put_document(
        self,
        document: models.DocumentIn | models.DocumentInFields | None = None,
        /,
        **fields: Unpack[models.DocumentInFields],
    ) -> models.IngestResponse:
        """Store a document (chunks with or without vectors, or its whole text), replacing
        the chunks it had. When the service runs it as a job (its chunks need many vectors
        made), waits for the job; JobFailedError if it did not store the document."""
        made = _calls.request_of(models.DocumentIn, document, fields)
        answer = self._run(_calls.put_document(made))
        if isinstance(answer, models.JobResponse):
            return stored_by(self.wait_for_job(answer.job.id))
        return answer

    def submit_document(
        self,
        document: models.DocumentIn | models.DocumentInFields | None = None,
        /,
        **fields: Unpack[models.DocumentInFields],
    ) -> models.Job:
        """Queue a document as a job (``?async=true``) and return the job at once."""
        made = _calls.request_of(models.DocumentIn, document, fields)
        answer = self._run(_calls.put_document(made, run_async=True))
        assert isinstance(answer, models.JobResponse)
        return answer.job

    def upload(
        self,
        files: Iterable[FileInput],
        *,
        collection: str = "default",
        options: Mapping[str, Any] | None = None,
        run_async: bool = False,
    ) -> models.UploadResponse | models.Job:
        """Store files (paths, or (name, bytes) pairs), a document each: the stored
        documents, or the job a large upload (or ``run_async``) was queued as."""
        answer = self._run(_calls.upload(read_files(files), collection, options, run_async))
        return answer.job if isinstance(answer, models.JobResponse) else answer

    def reembed_space(
        self,
        name: str,
        request: models.ReembedIn | models.ReembedInFields | None = None,
        /,
        **fields: Unpack[models.ReembedInFields],
    ) -> models.Job:
        """Re-embed a space with another embedder (or its own) as a job; searches switch
        to the new vectors when the job is done (see wait_for_job)."""
        made = _calls.request_of(models.ReembedIn, request, fields)
        return self._run(_calls.reembed_space(name, made)).job

    def get_job(self, job_id: int) -> models.Job:
        return self._run(_calls.get_job(job_id)).job

    def list_jobs(
        self, *, collection: str | None = None, status: str | None = None, limit: int = 100
    ) -> list[models.Job]:
        return self._run(_calls.list_jobs(collection, status, limit)).jobs

    def cancel_job(self, job_id: int) -> models.Job:
        return self._run(_calls.cancel_job(job_id)).job

    def wait_for_job(
        self, job_id: int, *, max_wait: float = 3600.0, interval: float = 0.5
    ) -> models.Job:
        """The job once it is done, failed or cancelled (TimeoutError past ``max_wait`` s)."""
        deadline = time.monotonic() + max_wait
        while True:
            job = self.get_job(job_id)
            if job.status in FINISHED:
                return job
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {job_id} is still {job.status} after {max_wait} s")
            time.sleep(interval)

    def get_document(
        self, doc_id: str, *, collection: str = "default", include_embeddings: bool = False
    ) -> models.DocumentResponse:
        return self._run(_calls.get_document(doc_id, collection, include_embeddings))

    def delete_document(
        self, doc_id: str, *, collection: str = "default"
    ) -> models.DeletedDocument:
        return self._run(_calls.delete_document(doc_id, collection))

    def ingest(
        self,
        documents: Iterable[models.DocumentIn | Mapping[str, Any]],
        *,
        batch_size: int = 64,
        concurrency: int = 4,
        on_progress: ProgressCallback | None = None,
    ) -> IngestProgress:
        """Store documents from any iterable (a generator reading a file streams): taken
        ``batch_size`` at a time, ``concurrency`` requests in flight, ``on_progress``
        called after each batch. A refused document raises BulkIngestError naming it."""
        progress = IngestProgress()
        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            for batch in batches(documents, batch_size):
                futures = [(p, d, pool.submit(self.put_document, d)) for p, d in batch]
                for position, document, future in futures:
                    try:
                        progress.add(future.result())
                    except APIError as error:
                        for _, _, rest in futures:
                            rest.cancel()
                        raise BulkIngestError(document.doc_id, position, error, progress) from error
                if on_progress is not None:
                    on_progress(progress)
        return progress

    # ---- collections, spaces, stats ----------------------------------------------------

    def create_collection(self, name: str, description: str = "") -> models.CollectionCreated:
        made = models.CollectionIn(name=name, description=description)
        return self._run(_calls.create_collection(made))

    def list_collections(self) -> models.CollectionsResponse:
        return self._run(_calls.list_collections())

    def get_collection(self, name: str) -> models.CollectionResponse:
        return self._run(_calls.get_collection(name))

    def delete_collection(self, name: str) -> models.DeletedCollection:
        return self._run(_calls.delete_collection(name))

    def register_space(
        self,
        name: str,
        dims: int,
        *,
        model: str = "",
        description: str = "",
        embedder: models.EmbedderConfig | Mapping[str, Any] | None = None,
    ) -> models.SpaceCreated:
        """Register a space; with ``embedder``, the service makes its vectors from text."""
        fields: dict[str, Any] = {"name": name, "dims": dims, "model": model,
                                  "description": description}  # fmt: skip
        if embedder is not None:
            fields["embedder"] = embedder
        made = models.SpaceIn.model_validate(fields)
        return self._run(_calls.register_space(made))

    def list_spaces(self) -> models.SpacesResponse:
        return self._run(_calls.list_spaces())

    def drop_space(self, name: str) -> models.SpaceDropped:
        return self._run(_calls.drop_space(name))

    def stats(self, collection: str = "default") -> models.StatsResponse:
        return self._run(_calls.stats(collection))

    # ---- signals, profiles, goals --------------------------------------------------------

    def update_signals(
        self,
        request: models.SignalsIn | models.SignalsInFields | None = None,
        /,
        **fields: Unpack[models.SignalsInFields],
    ) -> models.SignalsResponse:
        """Clicks, ratings, pinned signals for chunks (POST /api/rag/signals)."""
        made = _calls.request_of(models.SignalsIn, request, fields)
        return self._run(_calls.update_signals(made))

    def list_profiles(self) -> models.ProfilesResponse:
        return self._run(_calls.list_profiles())

    def get_profile(self, name: str, *, version: int | None = None) -> models.ProfileResponse:
        return self._run(_calls.get_profile(name, version))

    def profile_versions(self, name: str) -> models.ProfileVersions:
        return self._run(_calls.profile_versions(name))

    def put_profile(
        self,
        name: str,
        request: models.ProfileIn | models.ProfileInFields | None = None,
        /,
        **fields: Unpack[models.ProfileInFields],
    ) -> models.ProfileResponse:
        made = _calls.request_of(models.ProfileIn, request, fields)
        return self._run(_calls.put_profile(name, made))

    def delete_profile(self, name: str) -> models.Deleted:
        return self._run(_calls.delete_profile(name))

    def list_goals(self) -> models.GoalsResponse:
        return self._run(_calls.list_goals())

    def get_goal(self, name: str, *, include_embeddings: bool = False) -> models.GoalResponse:
        return self._run(_calls.get_goal(name, include_embeddings))

    def put_goal(
        self,
        name: str,
        request: models.GoalIn | models.GoalInFields | None = None,
        /,
        **fields: Unpack[models.GoalInFields],
    ) -> models.GoalResponse:
        made = _calls.request_of(models.GoalIn, request, fields)
        return self._run(_calls.put_goal(name, made))

    def delete_goal(self, name: str) -> models.Deleted:
        return self._run(_calls.delete_goal(name))

    # ---- the rest ----------------------------------------------------------------------

    def search_defaults(self) -> models.SearchDefaults:
        """What a search uses for the fields its request leaves out."""
        return self._run(_calls.search_defaults())

    def examples(self) -> models.ExamplesResponse:
        return self._run(_calls.examples())

    def health(self) -> models.Health:
        return self._run(_calls.health())

    def ready(self) -> models.Readiness:
        """The service's readiness; ``ok`` is false (with ``error``) while it is not ready."""
        return self._run(_calls.ready())

    def metrics(self) -> str:
        """The Prometheus exposition."""
        return self._run(_calls.metrics())
