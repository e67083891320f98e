"""Jobs: large inputs and re-embeds run by workers inside the service, from a queue in
PostgreSQL that survives a restart or a kill -9 of the service."""
