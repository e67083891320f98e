"""How recency decays with age: the request (and profile) form of the choice.

The functions themselves are computed in SQL (``api.recency`` in
sql/functions/002_recency.sql); ``RECENCY_FUNCTIONS`` names the same ones, in the same
order (a test holds them equal), and the search page reads them from the OpenAPI schema.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

RecencyFunction = Literal["inverse", "exponential", "gaussian", "linear"]
RECENCY_FUNCTIONS: tuple[str, ...] = get_args(RecencyFunction)

# Days. Beyond these, a scale is a typo rather than a choice (and 0.5^(days/1e-300)
# underflows), so a stored profile can always be used.
MIN_SCALE_DAYS = 1e-6
MAX_SCALE_DAYS = 1e9
ScaleDays = Annotated[
    float, Field(strict=True, allow_inf_nan=False, ge=MIN_SCALE_DAYS, le=MAX_SCALE_DAYS)
]


class Recency(BaseModel):
    """How recency decays with age. Every function is 1 for a chunk created now."""

    model_config = ConfigDict(extra="forbid")

    function: RecencyFunction = Field(
        default="inverse",
        description="inverse: 1/(1+days/scale_days) (scale 1 by default); exponential: "
        "0.5^(days/half_life_days); gaussian: 0.5^((days/scale_days)^2); linear: "
        "max(0, 1 - days/(2*scale_days)).",
    )
    half_life_days: ScaleDays | None = Field(
        default=None, description="For exponential (1e-6 .. 1e9 days)."
    )
    scale_days: ScaleDays | None = Field(
        default=None,
        description="Age in days at which recency is 0.5 (gaussian, linear; 1e-6 .. 1e9).",
    )

    @model_validator(mode="after")
    def _parameters(self) -> Recency:
        if self.function == "exponential" and self.half_life_days is None:
            raise ValueError("half_life_days is required for exponential decay")
        if self.function in ("gaussian", "linear") and self.scale_days is None:
            raise ValueError(f"scale_days is required for {self.function} decay")
        return self

    def scale(self) -> float:
        if self.function == "exponential":
            return float(self.half_life_days or 1.0)
        return float(self.scale_days or 1.0)
