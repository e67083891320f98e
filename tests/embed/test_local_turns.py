"""The local model's calls take turns: a query waits for one turn of a job's batch, not
for the whole batch (before, one job's 256 texts held every tenant's queries 10-20 s)."""

from __future__ import annotations

import threading
import time

from app.embed.config import local_default
from app.embed.local import TURN_TEXTS, Turns, loaded_model, model_source
from helpers import until


def _waiting(turns: Turns, count: int) -> bool:
    return sum(turns._waiting) == count


def test_of_those_waiting_the_lowest_rank_goes_first():
    turns, order = Turns(), []
    holding, release = threading.Event(), threading.Event()

    def first() -> None:
        with turns.turn(2):
            holding.set()
            release.wait(10)

    def waiter(rank: int) -> None:
        with turns.turn(rank):
            order.append(rank)

    threads = [threading.Thread(target=first)]
    threads[0].start()
    holding.wait(10)
    for waiting, rank in enumerate((2, 1, 0), start=1):  # a job's, a large request's, a query's
        threads.append(threading.Thread(target=waiter, args=(rank,)))
        threads[-1].start()
        until(lambda: _waiting(turns, waiting), 10, "the callers to wait")  # noqa: B023
    release.set()
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2]


def test_a_query_does_not_wait_for_a_jobs_whole_batch():
    model = loaded_model(model_source(local_default()))
    texts = [f"paragraph {n} " + "about brewing coffee at home with care " * 30
             for n in range(TURN_TEXTS * 8)]  # fmt: skip
    job_done: list[float] = []
    started = time.monotonic()
    job = threading.Thread(target=lambda: (model.encode(texts, 64, True, background=True),
                                           job_done.append(time.monotonic())))  # fmt: skip
    job.start()
    time.sleep(0.5)  # the job's first turn runs
    asked = time.monotonic()
    query = model.encode(["how long does cold brew steep"], 64, True)
    answered = time.monotonic()
    job.join(300)
    assert query.shape == (1, 384)
    assert job_done, "the job's batch did not finish"
    job_took, query_took = job_done[0] - started, answered - asked
    print(f"job batch {job_took:.1f} s, the query beside it {query_took:.2f} s")
    assert answered < job_done[0]  # not behind the whole batch
    assert query_took < job_took / 4
