"""Tool arguments that break a tool's schema, said as REST says a bad field: the MCP SDK
answers them with pydantic's report (its error codes and a link to pydantic's site), an
agent reads ``{"error": "embedding: field required", "field": "embedding"}``."""

from __future__ import annotations

from typing import Any

import orjson
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult
from pydantic import ValidationError


def argument_error(error: ValidationError) -> dict[str, Any]:
    """The first argument that breaks the schema: its name and the rule, in one line."""
    first = error.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first["loc"]) or "arguments"
    return {"error": f"{field}: {first['msg'][:1].lower()}{first['msg'][1:]}", "field": field}


class ToolsServer(MCPServer):
    """The SDK's server, its argument errors said as the tools' own errors are."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            cause = error.__cause__  # a crash (an answer that broke its own schema) stays one
            if isinstance(error, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            said = orjson.dumps(argument_error(cause)).decode()
            raise ToolError(f"Error executing tool {name}: {said}") from cause
