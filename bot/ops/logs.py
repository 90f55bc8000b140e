"""Structured logging for the bot and the terminal table.

One line per record, either ``key=value`` pairs (readable in a terminal, still
greppable) or JSON objects (for log shippers in production). Anything passed in
``extra=`` (``table=...``, ``guild=...``) becomes a key of its own, so a table id
can be searched for instead of parsed out of prose.
"""

from __future__ import annotations

import json as jsonlib
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

# Attributes every LogRecord has; whatever else is on a record came from `extra=`.
_STANDARD = set(vars(logging.LogRecord("x", logging.INFO, "x", 0, "x", None, None))) | {"message", "asctime"}
_MARK = "_gametable_handler"


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
        "level": record.levelname.lower(),
        "logger": record.name,
        "msg": record.getMessage(),
    }
    for key, value in vars(record).items():
        if key not in _STANDARD and not key.startswith("_"):
            fields[key] = value
    if record.exc_info:
        fields["exc"] = logging.Formatter().formatException(record.exc_info)
    return fields


def _quoted(value: Any) -> str:
    text = str(value)
    if text and not any(c in text for c in ' "=\n\t'):
        return text
    return jsonlib.dumps(text, ensure_ascii=False)


class KeyValueFormatter(logging.Formatter):
    """``ts=… level=info logger=bot.service.tables msg="…" table=abc``"""

    def format(self, record: logging.LogRecord) -> str:
        return " ".join(f"{key}={_quoted(value)}" for key, value in _fields(record).items())


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        return jsonlib.dumps(_fields(record), ensure_ascii=False, default=str)


def parse_level(level: str | int) -> int:
    """A logging level from a name or number; ``ValueError`` names the valid ones."""
    if isinstance(level, int):
        return level
    value = logging.getLevelName(level.strip().upper())
    if not isinstance(value, int):
        raise ValueError(f"unknown log level {level!r}; use DEBUG, INFO, WARNING, ERROR or CRITICAL")
    return value


def configure_logging(level: str | int = "INFO", json: bool = False, stream: TextIO | None = None) -> None:
    """Send every log record to ``stream`` (stderr) in one structured format.

    Calling it again replaces the handler it installed before instead of adding
    a second one, so records are never printed twice.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, _MARK, False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if json else KeyValueFormatter())
    setattr(handler, _MARK, True)
    root.addHandler(handler)
    root.setLevel(parse_level(level))
