"""Write src/ragsearch_client/models.py from the server's OpenAPI document.

Every component schema becomes a pydantic model: those a request body uses forbid fields
they do not name (a typo fails before it is sent), the others (responses) keep fields a
newer server adds. Each request model also gets a ``<Name>Fields`` TypedDict, so the
client's methods take its fields as typed keyword arguments (none of them required
there, so that a model can be passed instead; the model says which are).

    python scripts/generate_models.py                 # the document of the checkout's server
    python scripts/generate_models.py --url URL       # a running service (URL or URL/openapi.json)
    python scripts/generate_models.py --check         # exit 1 when models.py is stale

Without --url the document is built in-process from the server package (run it with the
server's interpreter: .venv/bin/python clients/python/scripts/generate_models.py).
tests/test_models_current.py regenerates from a live service and compares.
"""

from __future__ import annotations

import argparse
import importlib
import json
import keyword
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OUTPUT = Path(__file__).resolve().parent.parent / "src" / "ragsearch_client" / "models.py"
REF_PREFIX = "#/components/schemas/"
WIDTH = 100
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
HEADER = '''"""The request and response models of the ragsearch API.

Generated from the server's OpenAPI document by scripts/generate_models.py: DO NOT EDIT.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, TypedDict

from pydantic import Field

from ragsearch_client._base import RequestModel, ResponseModel
'''


def references(schema: Any) -> Iterator[str]:
    """The component names a schema refers to, at any depth."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF_PREFIX):
            yield ref.removeprefix(REF_PREFIX)
        for value in schema.values():
            yield from references(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from references(value)


def request_models(document: dict[str, Any]) -> set[str]:
    """The components a request body uses, directly or through another component."""
    components = document["components"]["schemas"]
    pending: list[str] = []
    for operations in document["paths"].values():
        for operation in operations.values():
            pending.extend(references(operation.get("requestBody", {})))
    found: set[str] = set()
    while pending:
        name = pending.pop()
        if name not in found:
            found.add(name)
            pending.extend(references(components[name]))
    return found


def ordered(components: dict[str, Any]) -> list[str]:
    """Component names, each after the ones it refers to (alphabetical otherwise)."""
    done: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in done or name in path:
            return
        for needed in sorted(set(references(components[name]))):
            visit(needed, (*path, name))
        done.append(name)

    for name in sorted(components):
        visit(name, ())
    return done


class Annotator:
    """Python annotations for JSON schemas. In a TypedDict, a request model may also be
    given as a plain dict (its Fields type) and a timestamp as an ISO 8601 string."""

    def __init__(self, requests: set[str], typed_dict: bool) -> None:
        self.requests = requests
        self.typed_dict = typed_dict

    def __call__(self, schema: dict[str, Any]) -> str:
        if "$ref" in schema:
            name = str(schema["$ref"]).removeprefix(REF_PREFIX)
            return f"{name} | {name}Fields" if self.typed_dict and name in self.requests else name
        for combinator in ("anyOf", "oneOf"):
            if combinator in schema:
                return union(self(part) for part in schema[combinator])
        if "enum" in schema:
            return "Literal[" + ", ".join(json.dumps(v) for v in schema["enum"]) + "]"
        if "const" in schema:
            return f"Literal[{json.dumps(schema['const'])}]"
        kind = schema.get("type")
        if kind == "array":
            return f"list[{self(schema.get('items', {}))}]"
        if kind == "object":
            return f"dict[str, {self.values_of(schema)}]"
        if kind == "string" and schema.get("format") == "date-time":
            return "datetime | str" if self.typed_dict else "datetime"
        if isinstance(kind, str) and kind in SCALARS:
            return SCALARS[kind]
        return "Any"

    def values_of(self, schema: dict[str, Any]) -> str:
        patterns = schema.get("patternProperties")
        if patterns:
            return union(self(value) for value in patterns.values())
        extra = schema.get("additionalProperties")
        return self(extra) if isinstance(extra, dict) else "Any"


def union(parts: Iterator[str]) -> str:
    """``a | b``: members split at top level, repeats dropped, None last."""
    members: list[str] = []
    for part in parts:
        for member in split_union(part):
            if member not in members:
                members.append(member)
    if "None" in members:
        members.remove("None")
        members.append("None")
    return " | ".join(members)


def split_union(annotation: str) -> list[str]:
    members, depth, start = [], 0, 0
    for index, char in enumerate(annotation):
        depth += char == "["
        depth -= char == "]"
        if char == "|" and depth == 0:
            members.append(annotation[start:index].strip())
            start = index + 1
    members.append(annotation[start:].strip())
    return members


def attribute(name: str) -> str:
    """A field's Python name: a keyword gets a trailing underscore (``class`` -> ``class_``)."""
    return f"{name}_" if keyword.iskeyword(name) else name


def string_lines(text: str, indent: int, prefix: str) -> list[str]:
    """A string literal after ``prefix``, split into implicitly joined literals so that
    each line fits in WIDTH."""
    room = WIDTH - indent - len(prefix) - 3
    words = text.replace("\n", " ").split(" ")
    pieces: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if current and len(quote(candidate + " ")) > room:
            pieces.append(current + " ")
            current = word
        else:
            current = candidate
    pieces.append(current)
    lines = [" " * indent + prefix + quote(pieces[0])]
    return lines + [" " * indent + quote(piece) for piece in pieces[1:]]


def quote(text: str) -> str:
    """A string literal quoted as ruff format quotes it: double quotes unless the text has
    more of them than single quotes."""
    body = text.replace("\\", "\\\\").replace("\n", "\\n")
    if text.count('"') > text.count("'"):
        return "'" + body.replace("'", "\\'") + "'"
    return '"' + body.replace('"', '\\"') + '"'


def default_argument(schema: dict[str, Any], required: bool) -> str | None:
    """``default=...`` or ``default_factory=...`` for Field(), None when required."""
    if required:
        return None
    value = schema.get("default")
    if value == []:
        return "default_factory=list"
    if value == {}:
        return "default_factory=dict"
    return f"default={literal(value)}"


def literal(value: Any) -> str:
    """A JSON value as Python source, strings in double quotes (as ruff format writes them)."""
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{literal(key)}: {literal(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    return repr(value)


def render_field(
    name: str, schema: dict[str, Any], required: bool, annotate: Annotator
) -> list[str]:
    python_name = attribute(name)
    annotation = annotate(schema)
    if not required and "default" not in schema and "None" not in split_union(annotation):
        annotation += " | None"
    arguments: list[str] = []
    default = default_argument(schema, required)
    if default:
        arguments.append(default)
    if python_name != name:
        arguments.append(f"alias={json.dumps(name)}")
    description = schema.get("description")
    head = f"    {python_name}: {annotation}"
    if not arguments and not description:
        return [head]
    if not description and python_name == name and default and default.startswith("default="):
        return [f"{head} = {default.removeprefix('default=')}"]
    if not description:
        single = f"{head} = Field({', '.join(arguments)})"
        if len(single) <= WIDTH:
            return [single]
    lines = [f"{head} = Field("]
    lines += [f"        {argument}," for argument in arguments]
    if description:
        lines += string_lines(description, 8, "description=")
        lines[-1] += ","
    return [*lines, "    )"]


def render_model(name: str, schema: dict[str, Any], requests: set[str]) -> list[str]:
    base = "RequestModel" if name in requests else "ResponseModel"
    lines = [f"class {name}({base}):"]
    if schema.get("description"):
        lines += docstring(schema["description"])
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    annotate = Annotator(requests, typed_dict=False)
    for field_name, field_schema in properties.items():
        lines += render_field(field_name, field_schema, field_name in required, annotate)
    if not properties:
        lines.append("    pass")
    return lines


def render_fields_dict(name: str, schema: dict[str, Any], requests: set[str]) -> list[str]:
    lines = [
        f"class {name}Fields(TypedDict, total=False):",
        f'    """{name} as keyword arguments (the model checks the required ones)."""',
        "",
    ]
    annotate = Annotator(requests, typed_dict=True)
    for field_name, field_schema in schema.get("properties", {}).items():
        line = f"    {field_name}: {annotate(field_schema)}"
        if len(line) > WIDTH:  # as ruff format wraps it
            line = f"    {field_name}: (\n        {annotate(field_schema)}\n    )"
        lines.append(line)
    return lines


def docstring(text: str) -> list[str]:
    body = text.strip().replace('"""', "'''").replace("\\", "\\\\").splitlines()
    if len(body) == 1 and len(body[0]) + 10 <= WIDTH:
        return [f'    """{body[0]}"""', ""]
    return ['    """' + body[0], *[f"    {line}".rstrip() for line in body[1:]], '    """', ""]


# Models the API renamed: the old name stays importable, as the model that replaced it.
RENAMED = {"Dropped": "SpaceDropped"}


def render(document: dict[str, Any]) -> str:
    components: dict[str, Any] = document["components"]["schemas"]
    requests = request_models(document)
    blocks = [HEADER.rstrip("\n")]
    for name in ordered(components):
        blocks.append("\n".join(render_model(name, components[name], requests)))
        if name in requests:
            blocks.append("\n".join(render_fields_dict(name, components[name], requests)))
    renamed = [f"{old} = {new}  # its name before" for old, new in RENAMED.items()
               if new in components and old not in components]  # fmt: skip
    if renamed:
        blocks.append("\n".join(renamed))
    return "\n\n\n".join(blocks) + "\n"


def server_document() -> dict[str, Any]:
    server = importlib.import_module("app.api.main")  # run with the server's interpreter
    document: dict[str, Any] = server.create_app().openapi()
    return document


def document_url(url: str) -> str:
    """The OpenAPI document of a service named by its base URL or by the document's own."""
    url = url.rstrip("/")
    return url if url.endswith("/openapi.json") else url + "/openapi.json"


def fetch_document(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(document_url(url), timeout=30) as response:
        document: dict[str, Any] = json.load(response)
    return document


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service (default: the server package)")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    arguments = parser.parse_args()
    try:
        document = fetch_document(arguments.url) if arguments.url else server_document()
    except OSError as error:  # urllib's errors: no service there, or no document
        print(f"no OpenAPI document at {document_url(arguments.url)}: {error}", file=sys.stderr)
        return 2
    code = render(document)
    if arguments.check:
        current = OUTPUT.read_text() if OUTPUT.exists() else ""
        if current != code:
            print(f"{OUTPUT} is stale: run scripts/generate_models.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(code)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
