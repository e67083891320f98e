"""JSON responses serialised with orjson."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse

from app.errors import RagError, Unavailable


class ORJSONResponse(JSONResponse):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_SERIALIZE_NUMPY)


def error_response(error: RagError) -> ORJSONResponse:
    """The one answer to an error: its body and status, and Retry-After on a 503."""
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, Unavailable) else None
    return ORJSONResponse(error.body(), status_code=error.status, headers=headers)
