"""The search tools over the Model Context Protocol (``ragsearch mcp``)."""
