"""What the client's tests share besides fixtures."""

from __future__ import annotations

import random

WRITE_KEY = "client-test-write-key"
READ_KEY = "client-test-read-key"
DIMS = 6  # the default space of the test service (LangChain's standard embeddings' size)


def unit(seed: int, dims: int = DIMS) -> list[float]:
    """A deterministic unit vector."""
    rng = random.Random(seed)
    values = [rng.gauss(0, 1) for _ in range(dims)]
    norm = sum(v * v for v in values) ** 0.5
    return [v / norm for v in values]
