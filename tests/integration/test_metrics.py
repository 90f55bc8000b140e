"""The operator's view: Prometheus metrics of moves, the sweeper and the
outbox, Discord's rate-limit waits, and the health endpoint."""

from __future__ import annotations

import logging
import socket
import time

import aiohttp
import pytest

from bot.ops import health, metrics
from bot.service.errors import TableError
from bot.service.tables import Player, TableService
from storage import keys
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")


def _sample(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


async def test_saved_and_refused_moves_are_counted_per_game(store: TableStore) -> None:
    service = TableService(store, clock=Clock(1000.0), turn_timeout=60, games={"high-card": HIGH_CARD})
    table = await service.create("high-card", ANN, channel_id=100)
    await service.join(table.id, BOB)
    table = (await service.start(table.id, ANN.user_id)).table
    player = (ANN, BOB)[service.awaited(table)[0]]
    hand = service.view(table, player.user_id).hand  # type: ignore[attr-defined]
    acts = _sample("gametable_acts_total", game="high-card")
    refusals = _sample("gametable_refusals_total", game="high-card")
    timed = _sample("gametable_act_seconds_count", game="high-card")

    with pytest.raises(TableError):
        await service.act(table.id, player.user_id, "play:no-such-card")
    await service.act(table.id, player.user_id, f"play:{hand[0]}")

    assert _sample("gametable_refusals_total", game="high-card") == refusals + 1
    assert _sample("gametable_acts_total", game="high-card") == acts + 1
    assert _sample("gametable_act_seconds_count", game="high-card") == timed + 1


def test_discord_rate_limit_waits_are_summed() -> None:
    metrics.watch_rate_limits()
    before = _sample("gametable_discord_rate_limit_wait_seconds_total")
    fmt = "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds."
    logging.getLogger("discord.http").warning(fmt, "POST", "https://discord.com/api/x", 1.5)
    assert _sample("gametable_discord_rate_limit_wait_seconds_total") == before + 1.5


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_metrics_and_health_endpoints(store: TableStore) -> None:
    now = time.time()
    # Over every bucket, and the single keys of earlier versions not yet emptied.
    for table_id, at in {"late": now - 30, "later": now + 600, "soon": now - 10}.items():
        await store.reschedule(table_id, at)
    await store.redis.zadd(keys.LEGACY_DEADLINES, {"older": now - 20})
    for table_id, at in {"a": 0, "b": now - 1, "c": now + 600}.items():
        await store.outbox.schedule(table_id, at)
    await store.redis.zadd(keys.LEGACY_OUTBOX, {"d": now - 5})
    assert len({keys.bucket(t) for t in ("late", "later", "soon", "a", "b", "c")}) > 1
    connected = [True]
    port = _free_port()
    runner = await health.serve(store, lambda: connected[0], "127.0.0.1", port)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/metrics") as reply:
                text = await reply.text()
            gauges = dict(line.split(" ", 1) for line in text.splitlines() if not line.startswith("#"))
            assert 29 <= float(gauges["gametable_sweeper_lag_seconds"]) < 60
            assert "gametable_outbox_backlog 3.0" in text
            async with http.get(f"http://127.0.0.1:{port}/healthz") as reply:
                assert reply.status == 200 and (await reply.json())["ok"] is True
            connected[0] = False
            async with http.get(f"http://127.0.0.1:{port}/healthz") as reply:
                assert reply.status == 503
                assert (await reply.json())["problems"] == ["not connected to Discord"]
    finally:
        await runner.cleanup()
