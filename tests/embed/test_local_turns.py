"""The local model's calls take turns: a query waits for one turn of a job's batch, not
for the whole batch (before, one job's 256 texts held every tenant's queries 10-20 s),
and a job passed over by a stream of queries still gets its turn."""

from __future__ import annotations

import asyncio
import time

import numpy as np

from app.embed.config import local_default
from app.embed.local import PASSED_OVER, TURN_TEXTS, Turns, in_turns, loaded_model, model_source


async def _until_waiting(turns: Turns, count: int) -> None:
    for _ in range(500):
        if sum(turns._waiting) == count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} callers never waited")


async def _order(ranks: list[int]) -> list[int]:
    turns, order, release = Turns(), [], asyncio.Event()

    async def first() -> None:
        async with turns.turn(2):
            await release.wait()

    async def waiter(rank: int) -> None:
        async with turns.turn(rank):
            order.append(rank)
            await asyncio.sleep(0)

    tasks = [asyncio.create_task(first())]
    await _until_waiting(turns, 0)
    for count, rank in enumerate(ranks, start=1):
        tasks.append(asyncio.create_task(waiter(rank)))
        await _until_waiting(turns, count)
    release.set()
    await asyncio.gather(*tasks)
    return order


def test_of_those_waiting_the_lowest_rank_goes_first():
    assert asyncio.run(_order([2, 1, 0])) == [0, 1, 2]  # a job's, a request's, a query's


def test_a_call_passed_over_enough_turns_goes_next():
    order = asyncio.run(_order([2] + [0] * (PASSED_OVER + 3)))
    assert order.index(2) == PASSED_OVER


async def _query_beside_a_job(texts: list[str]) -> tuple[float, float]:
    model = loaded_model(model_source(local_default()))

    def encode(part: list[str]) -> np.ndarray:
        return model.encode(part, 64, True)

    started = time.monotonic()
    job = asyncio.create_task(in_turns(model, texts, True, encode))
    await asyncio.sleep(0.5)  # the job's first turn runs
    asked = time.monotonic()
    (query,) = await in_turns(model, ["how long does cold brew steep"], False, encode)
    answered = time.monotonic()
    parts = await job
    job_took = time.monotonic() - started
    assert query.shape == (1, 384)
    whole = np.concatenate(parts)
    assert np.allclose(whole, encode(texts), atol=1e-5)  # the same vectors, in order
    return answered - asked, job_took


def test_a_query_does_not_wait_for_a_jobs_whole_batch():
    texts = [f"paragraph {n} " + "about brewing coffee at home with care " * 30
             for n in range(TURN_TEXTS * 8)]  # fmt: skip
    query_took, job_took = asyncio.run(_query_beside_a_job(texts))
    print(f"job batch {job_took:.1f} s, the query beside it {query_took:.2f} s")
    assert query_took < job_took / 4
