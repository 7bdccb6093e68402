"""What the bot is doing, counted for Prometheus (`prometheus-client`) and served at
`/metrics` on the health port (`bot.health`).

One `Metrics` per bot process, with its own registry: in a scale-out each shard
process serves its own figures, and a scraper lists every process. Labels name only
things there are few of (a game, a variant, a command, a kind of refusal, a route's
class, a status, a shard), never a match, a user or a server.

Discord's answers are heard where discord.py talks to it: an aiohttp trace on its
session (`trace`) sees every request, retries of a 429 included, and the interaction
callbacks, whose delay since the interaction was made is the time to its first answer
(Discord drops an interaction not answered within 3 s). The services record the rest
(`applied`, `refused`, `decided`, ...); gauges that are read off the store (the
outbox's backlog, the matches under way) are read when a scrape asks (`read_with`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from types import SimpleNamespace
from typing import Any

import aiohttp
from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from rules.core import IllegalAction

LATE_ANSWER = 2.5  # seconds to a first answer past which Discord may already have dropped it
DISCORD_EPOCH_MS = 1_420_070_400_000  # a snowflake's time counts from 2015 in milliseconds
API = re.compile(r"^/api/v\d+")
# Interaction callbacks and the webhook routes of responses and follow-ups are kept out
# of Discord's global limit of requests per second; every other route counts in it.
INTERACTION_ROUTES = re.compile(r"^/(interactions|webhooks)/")
CALLBACK = re.compile(r"^/interactions/(?P<id>\d+)/[^/]+/callback$")
WORD = re.compile(r"[a-z][a-z_-]{0,23}")
SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
Reader = Callable[["Metrics"], Awaitable[None]]


def route_class(path: str) -> str:
    """`interaction` for the routes kept out of the global limit, else `global`."""
    return "interaction" if INTERACTION_ROUTES.match(path) else "global"


def api_path(path: str) -> str:
    """A request's path without the API's version prefix."""
    return API.sub("", path, count=1)


def snowflake_seconds(snowflake: int) -> float:
    """The Unix time a Discord id was made at."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def refusal_kind(error: BaseException) -> str:
    """A refusal's kind, as a label: the error's name in snake case (not_your_turn,
    stale_choice...), `illegal` for a move the rules refuse."""
    if isinstance(error, IllegalAction):
        return "illegal"
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(error).__name__).lower()


def family(custom_id: str) -> str:
    """A component's family from its custom id (`arbiter:act:12:3` is `act`), or
    `other` for one that isn't ours."""
    parts = custom_id.split(":")
    if len(parts) > 1 and parts[0] == "arbiter" and WORD.fullmatch(parts[1]):
        return parts[1]
    return "other"


class Metrics:
    """Every figure the bot keeps, in one registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.actions = Counter(
            "arbiter_actions", "Actions applied to matches.", ["game", "variant"], registry=r
        )
        self.refusals = Counter(
            "arbiter_refusals",
            "Moves refused, by kind (not_your_turn, illegal, stale_choice...).",
            ["game", "variant", "kind"],
            registry=r,
        )
        self.handling = Histogram(
            "arbiter_interaction_seconds",
            "Time an interaction's handler took, by kind (command, component) and name.",
            ["kind", "name"],
            buckets=SECONDS,
            registry=r,
        )
        self.first_answer = Histogram(
            "arbiter_interaction_first_answer_seconds",
            "Time from an interaction to its first answer reaching Discord.",
            buckets=(0.25, 0.5, 1.0, 1.5, 2.0, LATE_ANSWER, 3.0, 5.0),
            registry=r,
        )
        self.late_answers = Counter(
            "arbiter_interaction_late_answers",
            f"First answers that reached Discord more than {LATE_ANSWER} s after the interaction.",
            registry=r,
        )
        self.requests = Counter(
            "arbiter_discord_requests",
            "Requests to Discord, by route class (global: counted in the global limit;"
            " interaction: exempt) and status (error: no answer).",
            ["route", "status"],
            registry=r,
        )
        self.rate_limited = Counter(
            "arbiter_discord_rate_limited",
            "429 answers, by route class and scope (user, global, shared).",
            ["route", "scope"],
            registry=r,
        )
        self.retry_after = Histogram(
            "arbiter_discord_retry_after_seconds",
            "The wait a 429 asked for.",
            buckets=(0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0),
            registry=r,
        )
        self.outbox_waiting = Gauge(
            "arbiter_outbox_waiting", "Notices waiting to be delivered.", registry=r
        )
        self.outbox_oldest = Gauge(
            "arbiter_outbox_oldest_seconds",
            "Age of the oldest notice waiting to be delivered (0: none waits).",
            registry=r,
        )
        self.given_up = Counter(
            "arbiter_outbox_given_up",
            "Notices given up, by reason (refused: Discord will never take it; fault: ours).",
            ["reason"],
            registry=r,
        )
        self.leases = Gauge(
            "arbiter_shard_lease_held",
            "1 for each shard whose lease this process holds (PostgreSQL), else 0.",
            ["shard"],
            registry=r,
        )
        self.matches_active = Gauge(
            "arbiter_matches_active", "Matches under way, by game.", ["game"], registry=r
        )
        self.transactions = Histogram(
            "arbiter_store_transaction_seconds",
            "Time a write transaction of the store took.",
            buckets=SECONDS,
            registry=r,
        )
        self.ai_decisions = Histogram(
            "arbiter_ai_decision_seconds",
            "Time the AI took to decide, by game and level.",
            ["game", "level"],
            buckets=(0.05, 0.1, 0.25, 0.5, 0.8, 1.0, 1.5, 2.5, 5.0, 20.0),
            registry=r,
        )
        self.ai_fallbacks = Counter(
            "arbiter_ai_fallbacks",
            "Decisions the easy level made instead, the AI having failed or run late.",
            ["game"],
            registry=r,
        )
        self.pictures = Histogram(
            "arbiter_picture_seconds",
            "Time drawing a picture took (its count: pictures drawn), by game.",
            ["game"],
            buckets=SECONDS,
            registry=r,
        )
        self._readers: list[Reader] = []

    # ------------------------------------------------------------ matches

    def applied(self, game: str, variant: str) -> None:
        """An action was saved."""
        self.actions.labels(game, variant).inc()

    def refused(self, game: str, variant: str, error: BaseException) -> None:
        """A move was refused (`refusal_kind`)."""
        self.refusals.labels(game, variant, refusal_kind(error)).inc()

    @contextmanager
    def handling_of(self, kind: str, name: str) -> Iterator[None]:
        """Time an interaction's handler."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.handling.labels(kind, name).observe(time.perf_counter() - started)

    def transaction(self, seconds: float) -> None:
        """A write transaction ended after `seconds`."""
        self.transactions.observe(seconds)

    def decided(self, game: str, level: str, seconds: float, *, fallback: bool = False) -> None:
        """The AI decided (the easy level in its place, with `fallback`)."""
        self.ai_decisions.labels(game, level).observe(seconds)
        if fallback:
            self.ai_fallbacks.labels(game).inc()

    def drawn(self, game: str, seconds: float) -> None:
        """A picture was drawn."""
        self.pictures.labels(game).observe(seconds)

    def gave_up(self, reason: str) -> None:
        """A notice was given up (`refused` or `fault`)."""
        self.given_up.labels(reason).inc()

    # ------------------------------------------------------------ Discord

    def answered(
        self, method: str, path: str, status: int | None, headers: Any = None, now: float = 0.0
    ) -> None:
        """Discord answered a request to `path` (None: no answer came)."""
        path = api_path(path)
        kind = route_class(path)
        self.requests.labels(kind, "error" if status is None else str(status)).inc()
        if status == 429:
            headers = headers or {}
            scope = headers.get("X-RateLimit-Scope") or (
                "global" if headers.get("X-RateLimit-Global") else "user"
            )
            self.rate_limited.labels(kind, scope if WORD.fullmatch(scope) else "other").inc()
            with suppress(ValueError):
                self.retry_after.observe(float(headers.get("Retry-After", "")))
        called = CALLBACK.match(path)
        if method == "POST" and called and status is not None and status < 300:
            waited = max(0.0, (now or time.time()) - snowflake_seconds(int(called["id"])))
            self.first_answer.observe(waited)
            if waited > LATE_ANSWER:
                self.late_answers.inc()

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's session (`http_trace`): every answer, and
        every request that got none, is counted (`answered`)."""
        config = aiohttp.TraceConfig()

        async def ended(
            _session: aiohttp.ClientSession,
            _context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            response = params.response
            self.answered(params.method, params.url.path, response.status, response.headers)

        async def failed(
            _session: aiohttp.ClientSession,
            _context: SimpleNamespace,
            params: aiohttp.TraceRequestExceptionParams,
        ) -> None:
            self.answered(params.method, params.url.path, None)

        config.on_request_end.append(ended)
        config.on_request_exception.append(failed)
        return config

    # ------------------------------------------------------------ scraping

    def read_with(self, reader: Reader) -> None:
        """Have `reader` bring gauges up to date before each scrape."""
        self._readers.append(reader)

    async def exposition(self) -> tuple[bytes, str]:
        """The figures in Prometheus's text format, and its content type."""
        for reader in self._readers:
            await reader(self)
        return generate_latest(self.registry), CONTENT_TYPE
