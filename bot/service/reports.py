"""Error reports to Sentry, when `SENTRY_DSN` is set and `sentry-sdk` is installed (the
optional extra `sentry`); otherwise nothing changes.

What goes: every error the bot logs (a fault of ours: the apology's reference is in its
line), tagged with that reference, so that what a player quotes finds the report, and
with the match, server, shard and process the line is about (`bot.service.logs`).
What never goes: a hand or any hidden card. The reports carry no local variables of the
failing code, no data of the log lines before them, and any text that reads like a
saved state or a private view (a JSON object naming hands, decks or views) is replaced
before the report leaves the process (`scrub`).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from bot.service import logs

log = logging.getLogger(__name__)

REFERENCE = re.compile(r"\[ref ([0-9a-f]{6})\]")
# Keys of the saved states and private views under which hidden cards live.
PRIVATE = re.compile(
    r"""["']?\b(hand|hands|deck|decks|on_deck|reserved|discard|view|views|snapshot|"""
    r"""private|hidden|market_deck|draw_pile)\b["']?\s*[:=]""",
    re.IGNORECASE,
)
SCRUBBED = "[scrubbed: it may name hidden cards]"
NOT_INSTALLED = (
    "SENTRY_DSN is set but sentry-sdk is not installed: errors are not reported. "
    "Install the bot with its `sentry` extra (pip install '.[sentry]')."
)


def start(dsn: str | None, *, transport: Any = None) -> bool:
    """Report errors to Sentry at `dsn` from now on (`transport`: where reports go
    instead of Sentry, for a test); whether reporting started."""
    if not dsn:
        return False
    try:
        import sentry_sdk
        from sentry_sdk.integrations.logging import LoggingIntegration
    except ImportError:
        log.warning(NOT_INSTALLED)
        return False
    # An error logged is a report; lines before it are its breadcrumbs, and none goes to
    # Sentry as a log of its own. `scrub` drops the stack frames' variables whatever the
    # SDK's defaults collect.
    logged = LoggingIntegration(
        level=None, event_level=logging.ERROR, breadcrumb_level=logging.INFO
    )
    options: dict[str, Any] = {
        "dsn": dsn,
        "integrations": [logged],
        "before_send": scrub,
        "before_breadcrumb": _plain_breadcrumb,
        "max_request_body_size": "never",
    }
    if transport is not None:
        options["transport"] = transport
    sentry_sdk.init(**options)
    return True


def scrub(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """A report as it may leave: tagged with the reference and the context (where the
    error was raised, for what the context no longer says), stripped of whatever could
    name a hidden card."""
    tags = event.setdefault("tags", {})
    exc_info = (hint or {}).get("exc_info")
    raised = logs.raised_about(exc_info[1] if exc_info else None)
    for key, value in logs.context().items():
        value = raised.get(key) if value is None else value
        if value is not None:
            tags[key] = str(value)
    text = " ".join(_texts(event.get("logentry") or {})) + " " + str(event.get("message", ""))
    found = REFERENCE.search(text)
    if found:
        tags["reference"] = found.group(1)
    event.pop("extra", None)
    for key in ("logentry", "message"):
        if key in event:
            event[key] = _cleaned(event[key])
    for exception in (event.get("exception") or {}).get("values") or []:
        exception["value"] = _cleaned(exception.get("value"))
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)  # the code's own lines stay: they name no card
    for crumb in (event.get("breadcrumbs") or {}).get("values") or []:
        crumb.pop("data", None)
        crumb["message"] = _cleaned(crumb.get("message"))
    return event


def _plain_breadcrumb(crumb: dict[str, Any], _hint: Any = None) -> dict[str, Any]:
    """A breadcrumb without its data (a log line's arguments), its message scrubbed."""
    crumb.pop("data", None)
    crumb["message"] = _cleaned(crumb.get("message"))
    return crumb


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _texts(v)]
    return []


def _cleaned(value: Any) -> Any:
    """`value` with every string that reads like a state or a private view replaced."""
    if isinstance(value, str):
        return SCRUBBED if PRIVATE.search(value) else value
    if isinstance(value, dict):
        return {k: _cleaned(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cleaned(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_cleaned(v) for v in value)
    return value
