"""Log lines that say where they come from: the shard, the server and the match.

What the bot is doing for whom lives in context variables (`about`), set where the
work starts (an interaction, a lane's delivery, a clock's moment, a match service
change); every log line written meanwhile carries them, as `key=value` words in the
text format or as fields in the JSON one (`ARBITER_LOG_FORMAT=json`, one object a
line, for a log collector).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime

_match: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_match", default=None)
_guild: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_guild", default=None)
_shard: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_shard", default=None)
_process: str | None = None  # this process among several (its lease holder name)


@contextlib.contextmanager
def about(
    *, match: int | None = None, guild: int | None = None, shard: int | None = None
) -> Iterator[None]:
    """Log lines written inside name this match, server and shard (those given)."""
    tokens = [
        (var, var.set(value))
        for var, value in ((_match, match), (_guild, guild), (_shard, shard))
        if value is not None
    ]
    try:
        yield
    except BaseException as error:
        # The error remembers where it was raised: the line that reports it, outside,
        # still names the match (`raised_about`).
        found = error.__dict__.setdefault(_ABOUT, {})
        for key, var in (("shard", _shard), ("guild", _guild), ("match", _match)):
            if found.get(key) is None:
                found[key] = var.get()
        raise
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


_ABOUT = "_arbiter_about"


def raised_about(error: BaseException | None) -> dict[str, int | None]:
    """The shard, server and match an error was raised about (inside `about`)."""
    return dict(getattr(error, _ABOUT, {})) if error is not None else {}


def name_process(name: str) -> None:
    """Name this process in every line (several share one database)."""
    global _process
    _process = name


def context() -> dict[str, int | str | None]:
    """What the work under way is about: its shard, server and match, and this process."""
    return {
        "shard": _shard.get(),
        "guild": _guild.get(),
        "match": _match.get(),
        "process": _process,
    }


class Context(logging.Filter):
    """Puts the shard, server, match and process on each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        raised = raised_about(record.exc_info[1] if record.exc_info else None)
        for key, var in (("shard", _shard), ("guild", _guild), ("match", _match)):
            if getattr(record, key, None) is None:  # a line's own `extra` wins
                setattr(record, key, var.get() if var.get() is not None else raised.get(key))
        record.process_name = _process
        return True


FIELDS = ("shard", "guild", "match")


class TextFormatter(logging.Formatter):
    """`time level logger [shard=1 guild=… match=…] message`: only what is known."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-8s %(name)s %(where)s%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        known = [
            f"{k}={getattr(record, k)}" for k in FIELDS if getattr(record, k, None) is not None
        ]
        record.where = f"[{' '.join(known)}] " if known else ""
        return super().format(record)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the context, any error."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in (*FIELDS, "process_name"):
            value = getattr(record, key, None)
            if value is not None:
                line["process" if key == "process_name" else key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def handler(kind: str) -> logging.Handler:
    """A stderr handler in the text or JSON format, with the context on each line."""
    out = logging.StreamHandler()
    out.addFilter(Context())
    out.setFormatter(JsonFormatter() if kind == "json" else TextFormatter())
    return out
