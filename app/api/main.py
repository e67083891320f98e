"""The FastAPI application: lifespan (database, pool), error handlers, routes, web page."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles

from app import __version__
from app.api.examples import request_examples
from app.api.guard import LoopbackOnly
from app.api.openapi import install_openapi
from app.api.params import PARAMETER_RULES
from app.api.responses import ORJSONResponse
from app.api.routes import (
    collections,
    documents,
    examples,
    goals,
    health,
    profiles,
    search,
    signals,
    spaces,
)
from app.db.runtime import DatabaseRuntime
from app.db.supervisor import DatabaseSupervisor
from app.demo import load_demo
from app.errors import BadRequest, InternalError, RagError, Unavailable
from app.ingest.models import DocumentIn
from app.resources.collections import CollectionIn
from app.resources.goals import GoalIn
from app.resources.profiles import ProfileIn
from app.resources.signals import SignalsIn
from app.resources.spaces import SpaceIn
from app.search.explain import ExplainRequest
from app.search.purpose import PurposeSearchRequest
from app.search.request import SearchRequest
from app.search.space import SpaceSearchRequest
from app.settings import Settings, get_settings
from app.validation import field_path

log = logging.getLogger("ragsearch")

DESCRIPTION = """
Weighted retrieval for RAG: the top-k chunks by
`score = w_cos·sem + w_rec·rec + w_sig·sig`, computed inside PostgreSQL + pgvector.
Send `Authorization: Bearer <key>` when keys are configured.
"""


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    database = DatabaseSupervisor(settings, DatabaseRuntime(settings))
    await database.start()
    app.state.database = database
    if settings.demo:
        async with database.connection() as conn:
            await load_demo(conn, settings)
    try:
        yield
    finally:
        await database.stop()


def _error_response(error: RagError) -> ORJSONResponse:
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, Unavailable) else None
    return ORJSONResponse(error.body(), status_code=error.status, headers=headers)


def register_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RagError)
    async def rag_error(_: Request, error: RagError) -> Response:
        return _error_response(error)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, error: RequestValidationError) -> Response:
        first = error.errors()[0]
        loc = tuple(first.get("loc", ()))
        name = str(loc[-1]) if loc else "request"
        rule = PARAMETER_RULES.get(name)
        message = rule or f"{field_path(loc[1:]) or name}: {first.get('msg', 'invalid')}"
        return _error_response(BadRequest(message))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> Response:
        return ORJSONResponse(
            {"error": str(error.detail)}, status_code=error.status_code, headers=error.headers
        )

    @app.exception_handler(Exception)
    async def unexpected(_: Request, error: Exception) -> Response:
        log.exception("unhandled error", exc_info=error)
        return _error_response(InternalError(type(error).__name__))


def _mount_web_page(app: FastAPI) -> None:
    static = Path(str(files("app.static"))) / "dist"
    if (static / "index.html").exists():
        app.mount("/", StaticFiles(directory=static, html=True), name="web")
        return

    @app.get("/", include_in_schema=False)
    async def no_page() -> HTMLResponse:
        return HTMLResponse(
            "<h1>ragsearch</h1><p>The search page is not built (run <code>make web</code>). "
            'The API is documented at <a href="/docs">/docs</a>.</p>'
        )


def create_app(settings: Settings | None = None) -> FastAPI:
    app = FastAPI(
        title="ragsearch",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        default_response_class=ORJSONResponse,
    )
    settings = settings or get_settings()
    app.state.settings = settings
    if settings.open_access:
        app.add_middleware(LoopbackOnly)
    register_error_handlers(app)
    routers = (search, documents, collections, spaces, signals, profiles, goals, examples, health)
    for module in routers:
        app.include_router(module.router)
    install_openapi(
        app,
        [
            SearchRequest,
            SpaceSearchRequest,
            PurposeSearchRequest,
            ExplainRequest,
            DocumentIn,
            SpaceIn,
            SignalsIn,
            ProfileIn,
            GoalIn,
            CollectionIn,
        ],
        request_examples(settings),
    )
    _mount_web_page(app)
    return app
