"""The pages a browser opens: the search page at /, the API documentation at /docs and
/redoc, and the favicon. Every file they load is served from the package (the page's
build, Swagger UI and ReDoc bundled by it), so they work with no internet."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.staticfiles import StaticFiles

PAGE = Path(str(files("app.static"))) / "web-page"
API_DOCS = PAGE / "api-docs"  # written by the page's build (web/vite.config.js)

# A magnifier over three bars: ranked results.
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    b'<rect width="32" height="32" rx="6" fill="#1f4e79"/>'
    b'<rect x="5" y="7" width="14" height="3" rx="1.5" fill="#fff"/>'
    b'<rect x="5" y="13" width="10" height="3" rx="1.5" fill="#fff" opacity=".8"/>'
    b'<rect x="5" y="19" width="6" height="3" rx="1.5" fill="#fff" opacity=".6"/>'
    b'<circle cx="21" cy="19" r="5" fill="none" stroke="#ffd166" stroke-width="2.5"/>'
    b'<path d="M24.5 22.5l3.5 3.5" stroke="#ffd166" stroke-width="2.5" stroke-linecap="round"/>'
    b"</svg>"
)
NOT_BUILT = (
    "<h1>ragsearch</h1><p>The search page is not built (run <code>make web</code>). "
    'The API is documented at <a href="/docs">/docs</a>.</p>'
)
SWAGGER_CDN = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5"
REDOC_CDN = "https://cdn.jsdelivr.net/npm/redoc@2/bundles"
SWAGGER_PARAMETERS = {"persistAuthorization": True, "tryItOutEnabled": True}
# The way back from the API documentation to the search page, above either renderer.
BACK_LINK = (
    b'<nav style="font: 14px system-ui, sans-serif; padding: 8px 20px; background: #1f4e79">'
    b'<a href="/" style="color: #fff">&larr; ragsearch search page</a></nav>'
)


def _with_back_link(page: HTMLResponse) -> Response:
    body = bytes(page.body).replace(b"<body>", b"<body>\n" + BACK_LINK, 1)
    return HTMLResponse(body)


def install_pages(app: FastAPI) -> None:
    """Routes of their own rather than one file server at /, so that unknown methods on
    /api paths get 405 with Allow, not the file server's answer."""
    if (PAGE / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=PAGE / "assets"), name="assets")
    if API_DOCS.is_dir():
        app.mount("/api-docs", StaticFiles(directory=API_DOCS), name="api-docs")
    _search_page(app)
    _api_docs(app, offline=API_DOCS.is_dir())


def _search_page(app: FastAPI) -> None:
    index = PAGE / "index.html"

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(index) if index.exists() else HTMLResponse(NOT_BUILT)

    @app.get("/favicon.svg", include_in_schema=False)
    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml")


def _api_docs(app: FastAPI, offline: bool) -> None:
    """Swagger UI and ReDoc from the bundled files; from their CDN only in a checkout
    whose page was never built."""
    swagger = "/api-docs" if offline else SWAGGER_CDN
    redoc = "/api-docs" if offline else REDOC_CDN

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> Response:
        page = get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title} API",
            swagger_favicon_url="/favicon.svg",
            swagger_ui_parameters=SWAGGER_PARAMETERS,
            swagger_js_url=f"{swagger}/swagger-ui-bundle.js",
            swagger_css_url=f"{swagger}/swagger-ui.css",
        )
        return _with_back_link(page)

    @app.get("/redoc", include_in_schema=False)
    async def redoc_page() -> Response:
        page = get_redoc_html(
            openapi_url="/openapi.json",
            title=f"{app.title} API",
            redoc_favicon_url="/favicon.svg",
            with_google_fonts=False,
            redoc_js_url=f"{redoc}/redoc.standalone.js",
        )
        return _with_back_link(page)
