"""An embedder's turns in one event loop (app/embed/turns.py): one owner's writes and jobs
hold at most half the calls, and a caller held back by its owner's share holds back no
one of a later rank."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

from app.embed.turns import BACKGROUND, QUESTION, WRITE, Turns


class Calls:
    """Callers that take a turn and keep it until released."""

    def __init__(self, turns: Turns) -> None:
        self.turns = turns
        self.inside: list[str] = []
        self.release = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    def start(self, name: str, rank: int, owner: Hashable | None) -> None:
        self.tasks.append(asyncio.create_task(self._call(name, rank, owner)))

    async def _call(self, name: str, rank: int, owner: Hashable | None) -> None:
        async with self.turns.turn(rank, owner):
            self.inside.append(name)
            await self.release.wait()

    async def settled(self) -> list[str]:
        for _ in range(20):
            await asyncio.sleep(0)
        return sorted(self.inside)

    async def finish(self) -> None:
        self.release.set()
        await asyncio.gather(*self.tasks)


def test_one_owner_holds_at_most_half_the_calls() -> None:
    async def run() -> None:
        calls = Calls(Turns(4))
        for n in range(3):
            calls.start(f"a{n}", WRITE, "a")
        assert await calls.settled() == ["a0", "a1"]
        calls.start("b0", WRITE, "b")
        assert await calls.settled() == ["a0", "a1", "b0"]  # the last call is a question's
        calls.start("q", QUESTION, "b")
        assert await calls.settled() == ["a0", "a1", "b0", "q"]
        await calls.finish()
        assert sorted(calls.inside) == ["a0", "a1", "a2", "b0", "q"]

    asyncio.run(run())


def test_a_write_held_by_its_share_holds_back_no_job() -> None:
    async def run() -> None:
        calls = Calls(Turns(4))
        calls.start("a0", WRITE, "a")
        calls.start("a1", WRITE, "a")
        calls.start("a2", WRITE, "a")  # waits for a's share
        calls.start("job", BACKGROUND, "c")
        assert await calls.settled() == ["a0", "a1", "job"]
        await calls.finish()

    asyncio.run(run())


def test_writes_with_no_owner_share_every_call_but_one() -> None:
    async def run() -> None:
        calls = Calls(Turns(4))
        for n in range(4):
            calls.start(f"w{n}", WRITE, None)
        assert await calls.settled() == ["w0", "w1", "w2"]
        await calls.finish()

    asyncio.run(run())
