"""The operator's HTTP endpoint, on ``METRICS_PORT`` when it is set:
``/metrics`` for Prometheus (see :mod:`bot.ops.metrics`) and ``/healthz``, which
answers 200 while Redis answers and the gateway is connected and 503 otherwise
— for container orchestrators."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.ops.metrics import REGISTRY, refresh
from storage.store import STORAGE_FAULTS, TableStore


def app(store: TableStore, connected: Callable[[], bool]) -> web.Application:
    async def metrics(_: web.Request) -> web.Response:
        # Redis away: the gauges keep their last values, and /healthz says so.
        with contextlib.suppress(*STORAGE_FAULTS):
            await refresh(store)
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def health(_: web.Request) -> web.Response:
        problems = [] if connected() else ["not connected to Discord"]
        try:
            await store.redis.ping()
        except STORAGE_FAULTS:
            problems.append("Redis does not answer")
        return web.json_response({"ok": not problems, "problems": problems}, status=503 if problems else 200)

    application = web.Application()
    application.router.add_get("/metrics", metrics)
    application.router.add_get("/healthz", health)
    return application


async def serve(store: TableStore, connected: Callable[[], bool], host: str, port: int) -> web.AppRunner:
    """Start serving ``/metrics`` and ``/healthz``; stop with ``await runner.cleanup()``."""
    runner = web.AppRunner(app(store, connected), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
