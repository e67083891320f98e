"""Jobs: large inputs and re-embeds, run by the service's workers; their progress and
cancelling."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query
from psycopg import AsyncConnection

from app.api.deps import authorize, db
from app.api.openapi import ACCESS, errors
from app.api.schemas import JobResponse, JobsResponse
from app.auth import Access, Scope
from app.errors import NotFound
from app.jobs.store import cancel_job, job_view, list_jobs
from app.validation import COLLECTION_PATTERN

router = APIRouter(prefix="/api/rag/jobs", tags=["jobs"])

JobId = Annotated[int, Path(ge=1, le=2**62, description="The job's id.")]


async def _visible_job(conn: AsyncConnection, access: Access, job: int) -> dict[str, Any]:
    """The job, if the caller's key may use its collection (a re-embed's: an unrestricted
    key); to any other key it does not exist (its id tells nothing of other tenants)."""
    view = await job_view(conn, job)
    if access.collections is not None and view["collection"] not in access.collections:
        raise NotFound(f"no job {job}", job=job)
    return view


@router.get(
    "",
    summary="Recent jobs, newest first",
    response_model=JobsResponse,
    responses=errors(*ACCESS, 400),
)
async def jobs(
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    conn: Annotated[AsyncConnection, Depends(db)],
    collection: Annotated[
        str | None, Query(pattern=COLLECTION_PATTERN, description="Only this collection's.")
    ] = None,
    status: Annotated[
        Literal["queued", "running", "done", "failed", "cancelled"] | None,
        Query(description="Only jobs in this state."),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="At most this many.")] = 100,
) -> Any:
    if collection is not None:
        access.collection(collection)
    found = await list_jobs(conn, collection, status, limit, access.collections)
    return {"ok": True, "jobs": found}


@router.get(
    "/{job_id}",
    summary="A job: its state, progress and items (with each failed item's reason)",
    response_model=JobResponse,
    responses=errors(*ACCESS, 400, 404),
)
async def job(
    job_id: JobId,
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    conn: Annotated[AsyncConnection, Depends(db)],
) -> Any:
    return {"ok": True, "job": await _visible_job(conn, access, job_id)}


@router.post(
    "/{job_id}/cancel",
    summary="Cancel a job (a queued one at once, a running one at its next check)",
    response_model=JobResponse,
    responses=errors(*ACCESS, 400, 404),
)
async def cancel(
    job_id: JobId,
    access: Annotated[Access, Depends(authorize(Scope.WRITE))],
    conn: Annotated[AsyncConnection, Depends(db)],
) -> Any:
    """Documents the job stored before stay stored; its other items end cancelled."""
    await _visible_job(conn, access, job_id)
    await cancel_job(conn, job_id)
    return {"ok": True, "job": await job_view(conn, job_id)}
