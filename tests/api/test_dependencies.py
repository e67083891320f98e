"""Every dependency of every route is a coroutine (or an async generator): FastAPI runs a
plain function in its thread pool, a hand-off that costs more service CPU per request than
the dependency's own work (measured in docs/performance/http-and-ingest.md)."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import pytest
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from app.api.routes import routers

pytestmark = pytest.mark.unit


def _calls(dependant: Dependant) -> Iterator[object]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _calls(sub)


def _is_async(call: object) -> bool:
    """A coroutine function, an async generator function, or an instance whose __call__
    is one (as FastAPI's security schemes are)."""
    return any(
        inspect.iscoroutinefunction(c) or inspect.isasyncgenfunction(c)
        for c in (call, type(call).__call__)
    )


def test_no_route_has_a_dependency_that_runs_in_the_thread_pool() -> None:
    routes = [r for router in routers() for r in router.routes if isinstance(r, APIRoute)]
    assert len(routes) > 20
    blocking = {
        f"{route.path}: {getattr(call, '__qualname__', call)}"
        for route in routes
        for call in _calls(route.dependant)
        if not _is_async(call)
    }
    assert not blocking, sorted(blocking)
