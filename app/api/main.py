"""The FastAPI application: lifespan (database, pool), error handlers, routes, web page."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import Scope

from app import __version__
from app.api.deadline import RequestDeadline
from app.api.deps import BodyBudget
from app.api.examples import request_examples
from app.api.guard import HeaderGuard
from app.api.openapi import install_openapi
from app.api.pages import install_pages
from app.api.params import parameter_rule
from app.api.responses import ORJSONResponse, error_response
from app.api.routes import routers
from app.api.shares import Shares
from app.db.replicas import ReplicaSet
from app.db.runtime import DatabaseRuntime
from app.db.statistics import StatisticsKeeper
from app.db.supervisor import DatabaseSupervisor
from app.demo import load_demo
from app.embedders import embedders_of, warm_up
from app.errors import UNEXPECTED, BadRequest, InternalError, RagError
from app.jobs.handlers import JOB_HANDLERS
from app.jobs.worker import JobWorkers
from app.observe.logs import configure_logging
from app.observe.metrics import Metrics
from app.observe.requests import RequestObserver
from app.settings import Settings, get_settings
from app.validation import field_path

log = logging.getLogger("ragsearch")

DESCRIPTION = """
Weighted retrieval for RAG: the top-k chunks by
`score = w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig` (similarity, keywords, recency,
signal), computed inside PostgreSQL + pgvector.
Send `Authorization: Bearer <key>` when keys are configured.
"""


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start every part in turn; each one's stop is registered before it starts, so a
    failure at any step (a demo load, a warm-up) stops what had started, in reverse."""
    settings: Settings = app.state.settings
    async with AsyncExitStack() as parts:
        database = DatabaseSupervisor(settings, DatabaseRuntime(settings))
        parts.push_async_callback(database.stop)
        await database.start()
        app.state.database = database
        app.state.statistics = StatisticsKeeper(settings, database.connection)
        parts.push_async_callback(app.state.statistics.stop)
        replicas = ReplicaSet(settings)
        parts.push_async_callback(replicas.stop)
        await replicas.start()
        app.state.replicas = replicas
        app.state.metrics.watch_replicas(replicas)
        if settings.demo:
            async with database.connection() as conn:
                await load_demo(conn, settings)
        embedders = embedders_of(settings)
        parts.push_async_callback(embedders.close)
        async with database.connection() as conn:
            await warm_up(settings, conn)  # ready: the first search does not wait for a model
        shares: Shares = app.state.shares
        app.state.jobs = JobWorkers(settings, database.connection, JOB_HANDLERS, shares.for_job)
        parts.push_async_callback(app.state.jobs.stop)
        await app.state.jobs.start()
        yield


def _methods_of(app: FastAPI, scope: Scope) -> set[str]:
    methods: set[str] = set()
    for route in app.router.routes:
        match, _ = route.matches({**scope, "method": "GET"})
        if match is not Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return methods


def register_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RagError)
    async def rag_error(request: Request, error: RagError) -> Response:
        if error.status >= 500:
            request.state.error_kind = error.kind
        return error_response(error)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, error: RequestValidationError) -> Response:
        first = error.errors()[0]
        loc = tuple(first.get("loc", ()))
        name = str(loc[-1]) if loc else "request"
        rule = parameter_rule(name, first.get("ctx", {}).get("pattern"))
        message = rule or f"{field_path(loc[1:]) or name}: {first.get('msg', 'invalid')}"
        return error_response(BadRequest(message))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        headers = dict(error.headers or {})
        if error.status_code == 405:  # every method the path has, not only one route's
            headers["Allow"] = ", ".join(sorted(_methods_of(request.app, request.scope)))
        return ORJSONResponse(
            {"error": str(error.detail)}, status_code=error.status_code, headers=headers
        )

    @app.exception_handler(Exception)
    async def unexpected(_: Request, error: Exception) -> Response:
        log.exception("unhandled error", exc_info=error)
        return error_response(InternalError(UNEXPECTED))


def create_app(settings: Settings | None = None) -> FastAPI:
    app = FastAPI(
        title="ragsearch",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        default_response_class=ORJSONResponse,
        docs_url=None,  # served by app/api/pages.py from bundled files
        redoc_url=None,
        redirect_slashes=False,  # its Location would repeat the request's Host header
    )
    settings = settings or get_settings()
    app.state.settings = settings
    app.state.body_budget = BodyBudget(settings.ingest_bodies_max_bytes)
    app.state.shares = Shares(
        per_key=settings.share(settings.key_concurrency),
        per_collection=settings.share(settings.collection_concurrency),
        wait=settings.pool_timeout,
    )
    if not logging.getLogger().handlers:  # a worker process of `serve --workers N`
        configure_logging(settings.log_level, settings.log_format)
    app.add_middleware(
        HeaderGuard, open_mode=settings.open_access, allowed_origins=settings.allowed_origins
    )
    register_error_handlers(app)
    for router in routers():
        app.include_router(router)
    install_openapi(app, request_examples(settings))
    install_pages(app)
    _bound(app, settings)
    _observe(app, settings)
    return app


def _bound(app: FastAPI, settings: Settings) -> None:
    """No request waits on a hung database (app/api/deadline.py)."""

    def outage() -> asyncio.Future[None] | None:
        database = getattr(app.state, "database", None)
        return database.outage() if database is not None else None

    def alarm() -> None:
        database = getattr(app.state, "database", None)
        if database is not None:
            database.notice_failure()

    app.add_middleware(
        RequestDeadline, seconds=settings.request_timeout, outage=outage, on_expiry=alarm
    )


def _observe(app: FastAPI, settings: Settings) -> None:
    """Metrics and the request log; added last, so outermost: it sees every answer."""
    app.state.metrics = Metrics()

    def pool_stats() -> dict[str, int]:
        database = getattr(app.state, "database", None)
        return database.pool.get_stats() if database and database.pool else {}

    app.state.metrics.watch_pool(pool_stats)
    app.add_middleware(
        RequestObserver,
        metrics=app.state.metrics,
        access_log=settings.access_log,
        slow_search_ms=settings.slow_search_ms,
    )
