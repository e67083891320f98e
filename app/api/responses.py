"""JSON responses serialised with orjson."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse

from app.api.schemas import JobResponse
from app.errors import RagError


class ORJSONResponse(JSONResponse):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_SERIALIZE_NUMPY)


def error_response(error: RagError) -> ORJSONResponse:
    """The one answer to an error: its body and status, and Retry-After (429, 503)."""
    headers = None if error.retry_after is None else {"Retry-After": str(error.retry_after)}
    return ORJSONResponse(error.body(), status_code=error.status, headers=headers)


ACCEPTED: dict[int | str, dict[str, Any]] = {
    202: {"model": JobResponse, "description": "Queued as a job: follow Location."}
}


def accepted(job: dict[str, Any]) -> ORJSONResponse:
    """202 Accepted: the job the input was queued as, and where to follow it."""
    return ORJSONResponse({"ok": True, "job": job}, status_code=202,
                          headers={"Location": f"/api/rag/jobs/{job['id']}"})  # fmt: skip
