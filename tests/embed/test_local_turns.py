"""The local model's calls take turns: a query waits for one turn of a job's batch, not
for the whole batch (before, one job's 256 texts held every tenant's queries 10-20 s),
and a job passed over by a stream of queries still gets its turn."""

from __future__ import annotations

import asyncio
import time

import numpy as np

from app.embed import base
from app.embed.base import REQUEST
from app.embed.config import local_default
from app.embed.local import TURN_TEXTS, LocalEmbedder, in_turns, loaded_model, model_source
from app.embed.turns import BACKGROUND, PASSED_OVER, QUESTION, WRITE, Turns


async def _until_waiting(turns: Turns, count: int) -> None:
    for _ in range(500):
        if turns.waiting() == count:
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
    ranks = [BACKGROUND, WRITE, WRITE, QUESTION]
    assert asyncio.run(_order(ranks)) == [QUESTION, WRITE, WRITE, BACKGROUND]


async def _question_beside_writes() -> list[str]:
    """Four one-text writes and a question wait for the model; who is served first."""
    embedder = LocalEmbedder(local_default(), "minilm", 384)
    await embedder.load()
    turns, order, release = loaded_model(embedder._source).turns(), [], asyncio.Event()

    async def holder() -> None:
        async with turns.turn(BACKGROUND):
            await release.wait()

    async def write(n: int) -> None:
        await embedder.encode([f"a note of four words {n}"], REQUEST)
        order.append(f"write {n}")

    async def question() -> None:
        await embedder.encode_query("how long does cold brew steep")
        order.append("question")

    tasks = [asyncio.create_task(holder())]
    await _until_waiting(turns, 0)
    for n in range(4):
        tasks.append(asyncio.create_task(write(n)))
        await _until_waiting(turns, n + 1)
    tasks.append(asyncio.create_task(question()))
    await _until_waiting(turns, 5)
    release.set()
    await asyncio.gather(*tasks)
    return order


def test_a_question_goes_before_writes_of_one_text():
    # a write of a few texts was ranked as a question: four concurrent one-text writes of
    # one tenant put another's searches behind them
    assert asyncio.run(_question_beside_writes())[0] == "question"


async def _served_at_once(calls: int, writes: int) -> tuple[int, bool]:
    """``writes`` held calls, then a question: how many writes run, whether it runs too."""
    turns, release, running = Turns(calls), asyncio.Event(), [0]

    async def held(rank: int) -> None:
        async with turns.turn(rank):
            running[0] += 1
            await release.wait()

    tasks = [asyncio.create_task(held(WRITE)) for _ in range(writes)]
    await asyncio.sleep(0.05)
    ran = running[0]
    question = asyncio.create_task(held(QUESTION))
    await asyncio.sleep(0.05)
    answered = running[0] == ran + 1
    release.set()
    await asyncio.gather(question, *tasks)
    return ran, answered


def test_writes_leave_a_call_free_for_a_question():
    assert asyncio.run(_served_at_once(calls=3, writes=5)) == (2, True)
    assert asyncio.run(_served_at_once(calls=1, writes=2)) == (1, False)  # one call: waits


def test_a_call_passed_over_enough_turns_goes_next():
    order = asyncio.run(_order([2] + [0] * (PASSED_OVER + 3)))
    assert order.index(2) == PASSED_OVER


async def _query_beside_a_job(texts: list[str]) -> tuple[float, float]:
    model = loaded_model(model_source(local_default()))

    def encode(part: list[str]) -> np.ndarray:
        return model.encode(part, 64, True)

    started = time.monotonic()
    job = asyncio.create_task(in_turns(model, texts, base.JOB, encode))
    await asyncio.sleep(0.5)  # the job's first turn runs
    asked = time.monotonic()
    (query,) = await in_turns(model, ["how long does cold brew steep"], base.QUESTION, encode)
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


async def _a_write_behind_a_cancelled_question() -> bool:
    turns, release = Turns(), asyncio.Event()

    async def holder() -> None:
        async with turns.turn(BACKGROUND):
            await release.wait()

    async def caller(rank: int) -> None:
        async with turns.turn(rank):
            pass

    held = asyncio.create_task(holder())
    await _until_waiting(turns, 0)
    write = asyncio.create_task(caller(WRITE))
    await _until_waiting(turns, 1)
    question = asyncio.create_task(caller(QUESTION))
    await _until_waiting(turns, 2)
    release.set()
    await asyncio.sleep(0)  # the holder ends its turn: both are woken, the write defers
    question.cancel()  # and the question's client goes away before it takes its turn
    done, _ = await asyncio.wait([write], timeout=2)
    await asyncio.gather(held, question, return_exceptions=True)
    return write in done


def test_a_question_cancelled_while_waiting_lets_the_next_go():
    # the write waited for a notify no one would send, until some other call came
    assert asyncio.run(_a_write_behind_a_cancelled_question())


async def _after_a_passed_over_call_is_cancelled() -> list[str]:
    turns, order = Turns(), []

    async def caller(rank: int, name: str, until: asyncio.Event | None = None) -> None:
        async with turns.turn(rank):
            order.append(name)
            if until is not None:
                await until.wait()

    async def queue(*callers: tuple[int, str, asyncio.Event | None]) -> list[asyncio.Task[None]]:
        tasks = []
        for rank, name, until in callers:
            tasks.append(asyncio.create_task(caller(rank, name, until)))
            await _until_waiting(turns, len(tasks) - 1)
        return tasks

    first, last = asyncio.Event(), asyncio.Event()
    tasks = await queue((BACKGROUND, "holder", first), (BACKGROUND, "job", None),
                        *((QUESTION, f"q{n}", None) for n in range(PASSED_OVER - 1)),
                        (QUESTION, "last", last))  # fmt: skip
    first.set()  # the questions go, the job is passed over PASSED_OVER turns
    await asyncio.sleep(0.1)
    tasks[1].cancel()  # and its batch is cancelled before its turn comes
    last.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    order.clear()
    again = asyncio.Event()
    tasks = await queue((WRITE, "holder", again), (BACKGROUND, "job2", None),
                        (QUESTION, "question", None))  # fmt: skip
    again.set()
    await asyncio.gather(*tasks)
    return order[1:]


def test_a_new_call_does_not_inherit_the_turns_a_cancelled_one_was_passed_over():
    assert asyncio.run(_after_a_passed_over_call_is_cancelled()) == ["question", "job2"]
