"""The ``ragsearch`` command: serve, migrate, ingest, mcp, cluster."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_settings import SettingsError

from app.cluster.cli import add_parser as add_cluster_parser
from app.observe.logs import configure_logging
from app.settings import Settings
from app.settings_errors import FLAGS, about_settings, setting_problems

log = logging.getLogger("ragsearch")

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _flags_given(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the command line gives (over the environment's)."""
    return {name: getattr(args, name) for name in FLAGS if getattr(args, name, None) is not None}


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(**_flags_given(args))


def _bind_host(settings: Settings) -> str:
    if settings.open_access:
        if settings.host not in LOOPBACK:
            log.warning(
                "no RAG_API_KEYS / RAG_READ_KEYS configured: refusing to listen on %s, "
                "binding to 127.0.0.1 only",
                settings.host,
            )
        log.warning("no API keys configured: the service is OPEN (no authentication)")
        return "127.0.0.1"
    return settings.host


def _unreachable(settings: Settings) -> bool:
    """DATABASE_URL's database cannot be connected to: said on stderr in a line."""
    from app.db.runtime import DatabaseUnreachable, check_reachable

    if settings.database_url is None:
        return False  # the embedded server, started by the command
    try:
        check_reachable(settings.database_url, settings.db_start_wait_s)
    except DatabaseUnreachable as error:
        print(f"ragsearch: {error.message}", file=sys.stderr)
        return True
    return False


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.api.protocol import NoDelayHttpToolsProtocol
    from app.db.runtime import DatabaseRuntime

    settings = _settings(args)
    configure_logging(settings.log_level, settings.log_format)
    if _unreachable(settings):
        return 2
    host = _bind_host(settings)
    runtime: DatabaseRuntime | None = None
    if settings.workers > 1:
        # Start and migrate the database once here; the workers only connect to it.
        runtime = DatabaseRuntime(settings)
        os.environ["DATABASE_URL"] = runtime.start()
        os.environ["RAG_MIGRATE_ON_START"] = "false"
        if settings.demo:
            from app.demo import load_demo_sync

            load_demo_sync(os.environ["DATABASE_URL"], settings)
            os.environ["RAG_DEMO"] = "false"
    elif settings.demo:
        os.environ["RAG_DEMO"] = "true"
    try:
        uvicorn.run(
            "app.api.main:create_app",
            factory=True,
            host=host,
            port=settings.port,
            workers=settings.workers,
            loop="uvloop",
            http=NoDelayHttpToolsProtocol,
            log_level=settings.log_level,
            access_log=False,  # the service logs each request itself (app/observe)
            log_config=None,  # and formats uvicorn's lines as its own
            timeout_graceful_shutdown=30,
        )
    finally:
        if runtime is not None:
            runtime.stop()
    return 0


def migrate(args: argparse.Namespace) -> int:
    from app.db.runtime import DatabaseRuntime

    settings = _settings(args).model_copy(update={"migrate_on_start": True})
    configure_logging(settings.log_level, settings.log_format)
    if _unreachable(settings):
        return 2
    runtime = DatabaseRuntime(settings)
    try:
        runtime.start()
    finally:
        runtime.stop()
    print("migrations applied")
    return 0


def ingest(args: argparse.Namespace) -> int:
    from app.errors import RagError
    from app.ingest.cli import ingest_paths

    settings = _settings(args)
    configure_logging(
        "warning" if settings.log_level == "info" else settings.log_level, settings.log_format
    )
    try:
        return asyncio.run(ingest_paths(args, settings))
    except RagError as error:
        print(f"ingest: {error.message}", file=sys.stderr)
        return 2


def mcp(args: argparse.Namespace) -> int:
    from app.mcp.server import build_server

    settings = _settings(args)
    # stdout carries the protocol: logs go to stderr (logging's default stream).
    configure_logging(
        "warning" if settings.log_level == "info" else settings.log_level, settings.log_format
    )
    if _unreachable(settings):
        return 2
    _say_if_new(settings)
    build_server(settings).run("stdio")
    return 0


def _say_if_new(settings: Settings) -> None:
    """The MCP server about to start an embedded database of its own where there is none
    yet: most likely not the one ``ragsearch serve`` stores into (said, not refused: a
    first run may mean it)."""
    if (
        settings.database_url is None
        and not (settings.data_dir.expanduser() / "PG_VERSION").exists()
    ):
        print(f"ragsearch mcp: no database in {settings.data_dir} yet: starting a new, empty "
              "one. To search what `ragsearch serve` stores, give this command the same "
              "RAG_DATA_DIR (or DATABASE_URL).", file=sys.stderr)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragsearch", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("serve", help="run the HTTP service")
    p.add_argument("--host", help="interface (default RAG_HOST, 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default RAG_PORT, 8000)")
    p.add_argument("--workers", type=int, help="worker processes (default RAG_WORKERS, 1)")
    p.add_argument("--demo", action="store_true", default=None, help="load the demo corpus")
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"])
    p.set_defaults(func=serve)

    p = commands.add_parser("migrate", help="apply migrations to DATABASE_URL (or embedded)")
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"])
    p.set_defaults(func=migrate)

    p = commands.add_parser(
        "ingest",
        help="load files, folders and glob patterns (text, Markdown, HTML, reST, PDF, source "
        "code: a document each) and JSONL files (a document per line)",
    )
    p.add_argument(
        "paths", nargs="+", metavar="PATH",
        help="files, folders (every file of a kind it reads), glob patterns ('docs/**/*.md'), "
        "or .jsonl files ('-' for JSONL on standard input)",
    )  # fmt: skip
    p.add_argument("--collection", default="default", help="for files (default: default)")
    p.add_argument("--doc-id-prefix", default="", help="put before each file's path (its doc_id)")
    p.add_argument(
        "--batch-chunks", type=int, default=5000, help="chunks per transaction (default 5000)"
    )
    p.add_argument(
        "--rebuild-index",
        choices=["auto", "always", "never"],
        default="auto",
        help="drop each space's HNSW index and build it after the load: auto (when the file "
        "brings more vectors than the space holds), always, never (insert into the graph)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="JSONL: continue an interrupted load of the same file after the last batch it "
        "stored; files: skip those stored before from the same bytes",
    )
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"])
    p.set_defaults(func=ingest)

    p = commands.add_parser(
        "mcp", help="serve the search tools over the Model Context Protocol (stdio)"
    )
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"])
    p.set_defaults(func=mcp)

    add_cluster_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (ValidationError, SettingsError) as error:
        if not about_settings(error):
            raise
        for line in setting_problems(error, set(_flags_given(args))):
            print(line, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
