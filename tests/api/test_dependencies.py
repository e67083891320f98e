"""Every dependency of every route is a coroutine (or an async generator): FastAPI runs a
plain function in its thread pool, a hand-off that costs more service CPU per request than
the dependency's own work (docs/performance/http-and-ingest.md: with the settings'
dependency a coroutine, and the pool's ping gone, the plain-ANN endpoint served 13% more
requests a second at concurrency 20)."""

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


def test_no_route_has_a_dependency_that_runs_in_the_thread_pool() -> None:
    routes = [r for router in routers() for r in router.routes if isinstance(r, APIRoute)]
    assert len(routes) > 20
    blocking = {
        f"{route.path}: {getattr(call, '__qualname__', call)}"
        for route in routes
        for call in _calls(route.dependant)
        if not (inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call))
    }
    assert not blocking, sorted(blocking)
