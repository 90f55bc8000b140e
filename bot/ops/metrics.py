"""What an operator watches: Prometheus metrics and a health endpoint.

Served by :mod:`bot.ops.health` as ``/metrics`` (Prometheus text format): acts and refusals per game, the act
latency histogram, how late the deadline sweeper runs (the oldest deadline
that passed and is still waiting), the outbox backlog (tables with news due),
and the seconds spent waiting on Discord's rate limits.
"""

from __future__ import annotations

import logging
import time

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)

from storage.store import TableStore

REGISTRY = CollectorRegistry()
ACTS = Counter("gametable_acts", "Moves saved, per game.", ["game"], registry=REGISTRY)
REFUSALS = Counter(
    "gametable_refusals", "Moves refused with an answer, per game.", ["game"], registry=REGISTRY
)
ACT_SECONDS = Histogram(
    "gametable_act_seconds",
    "One move end to end: load, engine, save.",
    ["game"],
    registry=REGISTRY,
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
SWEEPER_LAG = Gauge(
    "gametable_sweeper_lag_seconds",
    "How long ago the oldest passed deadline passed (0: none waits).",
    registry=REGISTRY,
)
OUTBOX_BACKLOG = Gauge("gametable_outbox_backlog", "Tables with news due to be told.", registry=REGISTRY)
RATE_LIMIT_WAIT = Counter(
    "gametable_discord_rate_limit_wait_seconds",
    "Seconds told to wait by Discord's rate limits.",
    registry=REGISTRY,
)


# Each game's labelled counters and histogram, looked up once: ``labels()``
# takes a lock and builds its key on every call, on every move.
_PER_GAME: dict[str, tuple[Counter, Histogram, Counter]] = {}


def _of(game: str) -> tuple[Counter, Histogram, Counter]:
    found = _PER_GAME.get(game)
    if found is None:
        found = _PER_GAME[game] = (ACTS.labels(game), ACT_SECONDS.labels(game), REFUSALS.labels(game))
    return found


def saved(game: str, seconds: float) -> None:
    acts, latency, _ = _of(game)
    acts.inc()
    latency.observe(seconds)


def refused(game: str) -> None:
    _of(game)[2].inc()


class RateLimitWatch(logging.Handler):
    """Counts the waits discord.py logs when Discord answers 429 (it has no hook for them)."""

    def emit(self, record: logging.LogRecord) -> None:
        if "rate limit" in str(record.msg) and "Retrying in" in str(record.msg) and record.args:
            wait = record.args[-1] if isinstance(record.args, tuple) else None
            if isinstance(wait, (int, float)):
                RATE_LIMIT_WAIT.inc(wait)


def watch_rate_limits() -> None:
    http = logging.getLogger("discord.http")
    if not any(isinstance(h, RateLimitWatch) for h in http.handlers):
        http.addHandler(RateLimitWatch(logging.WARNING))


async def refresh(store: TableStore, now: float | None = None) -> None:
    """Read the sweeper lag and the outbox backlog from Redis (on each scrape),
    over every bucket of the two schedules."""
    now = time.time() if now is None else now
    oldest = await store.deadlines.oldest()
    SWEEPER_LAG.set(max(0.0, now - (now if oldest is None else oldest)))
    OUTBOX_BACKLOG.set(await store.outbox.index.count_due(now))
