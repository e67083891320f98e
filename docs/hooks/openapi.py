"""MkDocs hook: the service's OpenAPI document, generated at every build from
``app.api.main.create_app`` (offline, no database) and added to the site as
``api/openapi.json``, which the OpenAPI reference page renders with Swagger UI."""

from __future__ import annotations

import json

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from app.api.main import create_app
from app.settings import Settings

OPENAPI_PATH = "api/openapi.json"


def openapi_document() -> str:
    # The settings' defaults, not the building shell's environment.
    app = create_app(Settings.model_construct())
    return json.dumps(app.openapi(), indent=2, ensure_ascii=False) + "\n"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    files.append(File.generated(config, OPENAPI_PATH, content=openapi_document()))
    return files
