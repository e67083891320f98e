"""How recency decays with age: the request (and profile) form of the choice."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.validation import PositiveFloat


class Recency(BaseModel):
    """How recency decays with age. Every function is 1 for a chunk created now."""

    model_config = ConfigDict(extra="forbid")

    function: Literal["inverse", "exponential", "gaussian", "linear"] = Field(
        default="inverse",
        description="inverse: 1/(1+days/scale_days) (scale 1 by default); exponential: "
        "0.5^(days/half_life_days); gaussian: 0.5^((days/scale_days)^2); linear: "
        "max(0, 1 - days/(2*scale_days)).",
    )
    half_life_days: PositiveFloat | None = Field(default=None, description="For exponential.")
    scale_days: PositiveFloat | None = Field(
        default=None, description="Age in days at which recency is 0.5 (gaussian, linear)."
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
