"""The two kinds of model the generated module (models.py) is made of."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class RequestModel(BaseModel):
    """What the client sends: a field the server does not name is refused here, before the
    request leaves; only the fields that were set are sent (the server applies its own
    defaults to the rest)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    def body(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class ResponseModel(BaseModel):
    """What the server answers: fields a newer server adds are kept (``model_extra``)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)
