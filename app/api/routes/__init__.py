"""The HTTP routes, one module per resource, each with a ``router``: every module of this
package is included by the application (``routers``), so a new endpoint is a route in the
module of its resource, or a new module here."""

from __future__ import annotations

import importlib
import pkgutil

from fastapi import APIRouter


def routers() -> list[APIRouter]:
    """The router of every module of this package, by module name."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.append(module.router)
    return found
