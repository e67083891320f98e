"""SQL shipped as files in ``sql/`` (installed as the ``app.sql`` package).

``sql/schema/*.sql``   frozen schema pieces, each applied by one migration;
``sql/functions/*.sql`` the functions and types of schema api, applied in the order
                        ``sql/functions/load_order.txt`` gives (with SQL generated from
                        the service's registries) whenever they changed;
``sql/queries/*.sql``   the named statements the Python code runs (``-- name: x``).
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from psycopg import sql

from app.db.generated import generated_sql

_NAME_LINE = re.compile(r"^--\s*name:\s*(\w+)\s*$", re.MULTILINE)


def _root() -> Traversable:
    return files("app.sql")


def read_sql(relative_path: str) -> str:
    node = _root()
    for part in relative_path.split("/"):
        node = node / part
    return node.read_text(encoding="utf-8")


LOAD_ORDER = "load_order.txt"


def ddl_statements(text: str) -> list[str]:
    """A schema file of plain DDL (no function bodies) cut into its statements, at each
    line that ends in ";": on a Citus cluster a DDL command's text goes to the workers
    as it is, and they refuse several commands in one."""
    statements, lines = [], []
    for line in text.splitlines():
        lines.append(line)
        if line.rstrip().endswith(";"):
            statements.append("\n".join(lines))
            lines = []
    return statements


def apply_schema_file(connection: Any, name: str) -> None:
    """Apply ``sql/schema/NAME`` (plain DDL) one statement at a time: on a Citus cluster
    the workers refuse several in one. ``connection``: a psycopg connection (a
    migration's driver connection)."""
    for statement in ddl_statements(read_sql(f"schema/{name}")):
        connection.execute(statement)


def load_order() -> list[str]:
    """The entries of sql/functions/load_order.txt: file names and ``@generated`` names."""
    text = (_root() / "functions" / LOAD_ORDER).read_text(encoding="utf-8")
    entries = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [entry for entry in entries if entry]


def function_scripts() -> list[tuple[str, str]]:
    """(entry, SQL) of every function file and generated piece, in load order."""
    folder = _root() / "functions"
    return [
        (entry, generated_sql(entry[1:]) if entry.startswith("@")
         else (folder / entry).read_text(encoding="utf-8"))
        for entry in load_order()
    ]  # fmt: skip


@cache
def functions_digest() -> str:
    """A fingerprint of the function files; stored in the database when applied."""
    digest = hashlib.sha256()
    for name, text in function_scripts():
        digest.update(name.encode())
        digest.update(text.encode())
    return digest.hexdigest()


class Queries:
    """Named statements from one ``sql/queries`` file, read as attributes."""

    def __init__(self, text: str, source: str) -> None:
        self._source = source
        self._statements: dict[str, str] = {}
        parts = _NAME_LINE.split(text)
        for name, body in zip(parts[1::2], parts[2::2], strict=True):
            self._statements[name] = body.strip().rstrip(";")

    def __getattr__(self, name: str) -> str:
        try:
            return self._statements[name]
        except KeyError:
            raise AttributeError(f"no query named {name!r} in {self._source}") from None


@cache
def queries(file_stem: str) -> Queries:
    return Queries(read_sql(f"queries/{file_stem}.sql"), f"sql/queries/{file_stem}.sql")


def vector_table(space_id: int) -> sql.Identifier:
    """The table holding a space's vectors (the same rule as ``api.vector_table``)."""
    return sql.Identifier("rag", f"vectors_{space_id}")


def with_table(statement: str, space_id: int, columns: tuple[str, ...] = ()) -> sql.Composed:
    """A named statement whose ``{table}`` is a space's vector table (and ``{columns}``,
    when it has them, the columns given)."""
    names = sql.SQL(", ").join(sql.Identifier(name) for name in columns)
    return sql.SQL(statement).format(table=vector_table(space_id), columns=names)
