"""What runs each kind of job."""

from __future__ import annotations

from app.jobs.ingest import run_ingest
from app.jobs.reembed import run_reembed
from app.jobs.worker import Handler

JOB_HANDLERS: dict[str, Handler] = {"ingest": run_ingest, "reembed": run_reembed}
