"""The asynchronous client: the methods of ragsearch_client.Client, awaitable."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from types import TracebackType
from typing import Any, TypeVar, Unpack

import httpx

from ragsearch_client import _calls, models
from ragsearch_client._bulk import BulkIngestError, IngestProgress, ProgressCallback, batches
from ragsearch_client._http import RETRIED_CONNECT_ERRORS, Call, Retries, decode, headers
from ragsearch_client._http import should_retry as _should_retry
from ragsearch_client._jobs import FINISHED, FileInput, read_files, stored_by
from ragsearch_client.client import DEFAULT_URL, Consistency
from ragsearch_client.errors import APIError, TransportError

T = TypeVar("T")


class AsyncClient:
    """A ragsearch service at ``base_url``, for asyncio: the arguments and methods of
    Client, each method a coroutine. Use it as an async context manager, or aclose()."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        retries: Retries | None = None,
        consistency: Consistency | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.retries = retries or Retries()
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        self._headers = headers(api_key, consistency)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def _run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = await self._http.request(
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
                await asyncio.sleep(self.retries.wait(attempt, None))
                attempt += 1
                continue
            except httpx.HTTPError as error:
                raise TransportError(f"{call.method} {call.path}: {error}") from error
            if not _should_retry(call, response, self.retries, attempt):
                return decode(call, response)
            await asyncio.sleep(self.retries.wait(attempt, response))
            attempt += 1

    # ---- search ----------------------------------------------------------------------

    async def search(
        self,
        request: models.SearchRequest | models.SearchRequestFields | None = None,
        /,
        **fields: Unpack[models.SearchRequestFields],
    ) -> models.SearchResponse:
        """The top-k chunks by the weighted blend (POST /api/rag/search)."""
        return await self._run(
            _calls.search(_calls.request_of(models.SearchRequest, request, fields))
        )

    async def explain(
        self,
        request: models.ExplainRequest | models.ExplainRequestFields | None = None,
        /,
        **fields: Unpack[models.ExplainRequestFields],
    ) -> models.ExplainResponse:
        """Where one chunk ranks for a search, and what kept it out (POST /api/rag/explain)."""
        made = _calls.request_of(models.ExplainRequest, request, fields)
        return await self._run(_calls.explain(made))

    async def facets(
        self,
        request: models.FacetRequest | models.FacetRequestFields | None = None,
        /,
        **fields: Unpack[models.FacetRequestFields],
    ) -> models.FacetsResponse:
        """How many of the chunks a search ranks from hold each tag, source, document,
        metadata value or collection (POST /api/rag/facets)."""
        made = _calls.request_of(models.FacetRequest, request, fields)
        return await self._run(_calls.facets(made))

    async def search_space(
        self,
        space: str,
        request: models.SpaceSearchRequest | models.SpaceSearchRequestFields | None = None,
        /,
        **fields: Unpack[models.SpaceSearchRequestFields],
    ) -> models.SpaceSearchResponse:
        """Nearest chunks of one space by cosine (POST /api/rag/search/space/{space})."""
        made = _calls.request_of(models.SpaceSearchRequest, request, fields)
        return await self._run(_calls.search_space(space, made))

    async def search_purpose(
        self,
        request: models.PurposeSearchRequest | models.PurposeSearchRequestFields | None = None,
        /,
        **fields: Unpack[models.PurposeSearchRequestFields],
    ) -> models.PurposeSearchResponse:
        """Chunks by alignment to a goal or vector (POST /api/rag/search/purpose)."""
        made = _calls.request_of(models.PurposeSearchRequest, request, fields)
        return await self._run(_calls.search_purpose(made))

    # ---- documents -------------------------------------------------------------------

    async def put_document(
        self,
        document: models.DocumentIn | models.DocumentInFields | None = None,
        /,
        **fields: Unpack[models.DocumentInFields],
    ) -> models.IngestResponse:
        """Store a document (chunks with or without vectors, or its whole text), replacing
        the chunks it had. When the service runs it as a job (its chunks need many vectors
        made), waits for the job; JobFailedError if it did not store the document."""
        made = _calls.request_of(models.DocumentIn, document, fields)
        answer = await self._run(_calls.put_document(made))
        if isinstance(answer, models.JobResponse):
            return stored_by(await self.wait_for_job(answer.job.id))
        return answer

    async def submit_document(
        self,
        document: models.DocumentIn | models.DocumentInFields | None = None,
        /,
        **fields: Unpack[models.DocumentInFields],
    ) -> models.Job:
        """Queue a document as a job (``?async=true``) and return the job at once."""
        made = _calls.request_of(models.DocumentIn, document, fields)
        answer = await self._run(_calls.put_document(made, run_async=True))
        assert isinstance(answer, models.JobResponse)
        return answer.job

    async def upload(
        self,
        files: Iterable[FileInput],
        *,
        collection: str = "default",
        options: Mapping[str, Any] | None = None,
        run_async: bool = False,
    ) -> models.UploadResponse | models.Job:
        """Store files (paths, or (name, bytes) pairs), a document each: the stored
        documents, or the job a large upload (or ``run_async``) was queued as."""
        answer = await self._run(_calls.upload(read_files(files), collection, options, run_async))
        return answer.job if isinstance(answer, models.JobResponse) else answer

    async def reembed_space(
        self,
        name: str,
        request: models.ReembedIn | models.ReembedInFields | None = None,
        /,
        **fields: Unpack[models.ReembedInFields],
    ) -> models.Job:
        """Re-embed a space with another embedder (or its own) as a job; searches switch
        to the new vectors when the job is done (see wait_for_job)."""
        made = _calls.request_of(models.ReembedIn, request, fields)
        return (await self._run(_calls.reembed_space(name, made))).job

    async def get_job(self, job_id: int) -> models.Job:
        return (await self._run(_calls.get_job(job_id))).job

    async def list_jobs(
        self, *, collection: str | None = None, status: str | None = None, limit: int = 100
    ) -> list[models.Job]:
        return (await self._run(_calls.list_jobs(collection, status, limit))).jobs

    async def cancel_job(self, job_id: int) -> models.Job:
        return (await self._run(_calls.cancel_job(job_id))).job

    async def wait_for_job(
        self, job_id: int, *, max_wait: float = 3600.0, interval: float = 0.5
    ) -> models.Job:
        """The job once it is done, failed or cancelled (TimeoutError past ``max_wait`` s)."""
        deadline = time.monotonic() + max_wait
        while True:
            job = await self.get_job(job_id)
            if job.status in FINISHED:
                return job
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {job_id} is still {job.status} after {max_wait} s")
            await asyncio.sleep(interval)

    async def get_document(
        self, doc_id: str, *, collection: str = "default", include_embeddings: bool = False
    ) -> models.DocumentResponse:
        return await self._run(_calls.get_document(doc_id, collection, include_embeddings))

    async def delete_document(
        self, doc_id: str, *, collection: str = "default"
    ) -> models.DeletedDocument:
        return await self._run(_calls.delete_document(doc_id, collection))

    async def ingest(
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
        gate = asyncio.Semaphore(max(1, concurrency))

        async def store(document: models.DocumentIn) -> models.IngestResponse:
            async with gate:
                return await self.put_document(document)

        for batch in batches(documents, batch_size):
            stored = await asyncio.gather(
                *(store(document) for _, document in batch), return_exceptions=True
            )
            for (position, document), outcome in zip(batch, stored, strict=True):
                if isinstance(outcome, APIError):
                    raise BulkIngestError(document.doc_id, position, outcome, progress) from outcome
                if isinstance(outcome, BaseException):
                    raise outcome
                progress.add(outcome)
            if on_progress is not None:
                on_progress(progress)
        return progress

    # ---- collections, spaces, stats ----------------------------------------------------

    async def create_collection(self, name: str, description: str = "") -> models.CollectionCreated:
        made = models.CollectionIn(name=name, description=description)
        return await self._run(_calls.create_collection(made))

    async def list_collections(self) -> models.CollectionsResponse:
        return await self._run(_calls.list_collections())

    async def get_collection(self, name: str) -> models.CollectionResponse:
        return await self._run(_calls.get_collection(name))

    async def delete_collection(self, name: str) -> models.DeletedCollection:
        return await self._run(_calls.delete_collection(name))

    async def register_space(
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
        return await self._run(_calls.register_space(made))

    async def list_spaces(self) -> models.SpacesResponse:
        return await self._run(_calls.list_spaces())

    async def drop_space(self, name: str) -> models.SpaceDropped:
        return await self._run(_calls.drop_space(name))

    async def stats(self, collection: str = "default") -> models.StatsResponse:
        return await self._run(_calls.stats(collection))

    # ---- signals, profiles, goals --------------------------------------------------------

    async def update_signals(
        self,
        request: models.SignalsIn | models.SignalsInFields | None = None,
        /,
        **fields: Unpack[models.SignalsInFields],
    ) -> models.SignalsResponse:
        """Clicks, ratings, pinned signals for chunks (POST /api/rag/signals)."""
        made = _calls.request_of(models.SignalsIn, request, fields)
        return await self._run(_calls.update_signals(made))

    async def list_profiles(self) -> models.ProfilesResponse:
        return await self._run(_calls.list_profiles())

    async def get_profile(self, name: str, *, version: int | None = None) -> models.ProfileResponse:
        return await self._run(_calls.get_profile(name, version))

    async def profile_versions(self, name: str) -> models.ProfileVersions:
        return await self._run(_calls.profile_versions(name))

    async def put_profile(
        self,
        name: str,
        request: models.ProfileIn | models.ProfileInFields | None = None,
        /,
        **fields: Unpack[models.ProfileInFields],
    ) -> models.ProfileResponse:
        made = _calls.request_of(models.ProfileIn, request, fields)
        return await self._run(_calls.put_profile(name, made))

    async def delete_profile(self, name: str) -> models.Deleted:
        return await self._run(_calls.delete_profile(name))

    async def list_goals(self) -> models.GoalsResponse:
        return await self._run(_calls.list_goals())

    async def get_goal(self, name: str, *, include_embeddings: bool = False) -> models.GoalResponse:
        return await self._run(_calls.get_goal(name, include_embeddings))

    async def put_goal(
        self,
        name: str,
        request: models.GoalIn | models.GoalInFields | None = None,
        /,
        **fields: Unpack[models.GoalInFields],
    ) -> models.GoalResponse:
        made = _calls.request_of(models.GoalIn, request, fields)
        return await self._run(_calls.put_goal(name, made))

    async def delete_goal(self, name: str) -> models.Deleted:
        return await self._run(_calls.delete_goal(name))

    # ---- the rest ----------------------------------------------------------------------

    async def search_defaults(self) -> models.SearchDefaults:
        """What a search uses for the fields its request leaves out."""
        return await self._run(_calls.search_defaults())

    async def examples(self) -> models.ExamplesResponse:
        return await self._run(_calls.examples())

    async def health(self) -> models.Health:
        return await self._run(_calls.health())

    async def ready(self) -> models.Readiness:
        """The service's readiness; ``ok`` is false (with ``error``) while it is not ready."""
        return await self._run(_calls.ready())

    async def metrics(self) -> str:
        """The Prometheus exposition."""
        return await self._run(_calls.metrics())
