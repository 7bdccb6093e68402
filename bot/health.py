"""Liveness and readiness over HTTP, for a supervisor or a load balancer.

`GET /healthz` answers 200 while the process's event loop runs (it is alive: restart
it when this stops answering). `GET /readyz` answers 200 when it does its work: the
database answers, the gateway shards it runs are connected, and (on PostgreSQL) its
renewals keep the leases it holds certain; else 503. Both send a JSON body saying
what was found: the engine and schema, the shards run and served, the lease holder.
`GET /metrics` gives the process's figures for Prometheus (`bot.service.metrics`).
Served on ARBITER_HEALTH_PORT, on every interface.
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from bot.host import Host

log = logging.getLogger(__name__)


class Health:
    """The checks' small web server."""

    def __init__(self, bot: Host, port: int) -> None:
        self.bot = bot
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._alive)
        app.router.add_get("/readyz", self._ready)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, port=self.port).start()
        log.info("health checks on port %d", self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _alive(self, _request: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    async def _ready(self, _request: web.Request) -> web.Response:
        report = await self.report()
        return web.json_response(report, status=200 if report["ready"] else 503)

    async def _metrics(self, _request: web.Request) -> web.Response:
        body, content_type = await self.bot.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": content_type})

    async def report(self) -> dict[str, Any]:
        """What readiness found."""
        bot = self.bot
        found: dict[str, Any] = {"shards": sorted(bot.settings.shards)}
        problems = []
        try:
            db = bot.matches.db
            found["engine"] = db.engine.name
            found["schema"] = await db.schema_version()
        except Exception as error:  # closed, not open yet, or the database is away
            problems.append(f"database: {error}")
        connected = sorted(
            shard_id for shard_id, shard in bot.shards.items() if not shard.is_closed()
        )
        found["connected"] = connected
        if not bot.is_ready() or set(connected) != set(bot.settings.shards):
            problems.append("gateway: not every shard is connected")
        leases = bot.leases
        if leases is not None:
            found["holder"] = leases.holder
            found["serving"] = sorted(leases.held)
            if leases.held and not leases.sure:
                problems.append("leases: renewals are failing")
        found["ready"] = not problems
        found["problems"] = problems
        return found
