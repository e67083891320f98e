"""What a command says of settings that break their rules: the variable (or the flag) and
the rule, the value given when it is no secret, and never a traceback."""

from __future__ import annotations

import re

from pydantic import ValidationError
from pydantic_settings import SettingsError

from app.settings import Settings

FLAGS = ("host", "port", "workers", "log_level", "demo")  # settings a command line may give
SECRET_PARTS = ("key", "url", "password", "secret", "token")  # values never said back
SHOWN = 100  # characters of a value said back


def about_settings(error: Exception) -> bool:
    """Whether ``error`` is the settings' (a command's own errors are not)."""
    if isinstance(error, ValidationError):
        return error.title == Settings.__name__
    return isinstance(error, SettingsError)


def setting_problems(error: ValidationError | SettingsError, flags: set[str]) -> list[str]:
    """A line per setting that breaks its rule."""
    if isinstance(error, SettingsError):  # a list or mapping that is not JSON
        found = re.search(r'field "(\w+)"', str(error))
        name = where((found.group(1),), flags) if found else "a setting"
        return [f"ragsearch: {name}: the value cannot be read (a list or a mapping is JSON)"]
    lines = []
    for problem in error.errors(include_url=False):
        rule = problem["msg"][:1].lower() + problem["msg"][1:]
        loc = problem["loc"]
        if not loc:  # a rule between settings, whose message names them
            lines.append(f"ragsearch: {rule.removeprefix('value error, ')}")
            continue
        given = _given(str(loc[0]), problem["input"])
        lines.append(f"ragsearch: {where(loc, flags)}: {rule}{given}")
    return lines


def where(loc: tuple[int | str, ...], flags: set[str]) -> str:
    """The flag or environment variable a setting came from (DATABASE_URL has no prefix)."""
    name = str(loc[0])
    if name in flags:
        return "--" + name.replace("_", "-")
    return name if name.isupper() else f"RAG_{name.upper()}"


def _given(name: str, value: object) -> str:
    secret = any(part in name.lower() for part in SECRET_PARTS)
    if secret or not isinstance(value, str | int | float | bool):
        return ""
    return f" (got {str(value)[:SHOWN]!r})"
