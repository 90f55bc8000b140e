"""How long one act takes, on many tables at once, against a real Redis.

An act is :meth:`bot.service.tables.TableService.act` end to end: load the table, let the
engine apply the move, save with compare-and-set on the version, append the log
(and refresh the indexes). Beside it the bare Redis GET+SET round trip is timed
on the same client, with a value the size of a table's state, so the ratio shows
what the table layer costs on top of the network and Redis itself. The two take
turns in ten blocks, so both are timed under the same conditions: a round trip's
time swings by half or more with how busy (or how idle) the machine is, and a
baseline timed after all the acts met other conditions than they did.

Run: ``gametable bench [--tables 200] [--acts 2000] [--concurrency 50] [--game KEY]``
or ``python -m benchmarks.bench_act``. Uses REDIS_URL, else a private
``redis-server`` on a free port. Every table and key it writes is deleted after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from redis.asyncio import Redis

from bot.ops import collector
from bot.service.errors import TableError
from bot.service.tables import Player, TableService
from engines.core import Engine
from storage.connect import RedisUnavailable, reach
from storage.connect import connect as redis_client
from storage.records import TableRecord, TableStatus
from storage.server import RedisServer
from storage.store import TableStore

GameMap = Mapping[str, Engine[Any, Any]]
BENCH_KEY = "gt:bench:roundtrip:{n}"
# Acts and bare round trips take turns in this many blocks.
BLOCKS = 10


@dataclass
class Figures:
    act_seconds: list[float] = field(default_factory=list)
    roundtrip_seconds: list[float] = field(default_factory=list)
    act_wall: float = 0.0
    # This process's CPU seconds over the acts (moves picked and new tables made
    # included): steadier than wall time on a shared machine.
    act_cpu: float = 0.0
    # Of it, the CPU seconds the benchmark spent choosing moves for its players
    # (a client's work, not the table's): left out of the CPU per act.
    pick_cpu: float = 0.0
    refused: int = 0
    tables_used: int = 0


def percentile(samples: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


class _Bench:
    """Tables of one game, played with random legal moves, every act timed."""

    def __init__(self, service: TableService, game: str, acts: int, concurrency: int) -> None:
        self.service = service
        self.game = game
        self.left = acts
        self.limit = asyncio.Semaphore(concurrency)
        self.figures = Figures()
        self.created: list[str] = []
        self.rngs: dict[int, random.Random] = {}
        self.state_size = 0

    async def new_table(self, number: int) -> TableRecord:
        engine = self.service.engine(self.game)
        low, _ = engine.seat_range(engine.parse_options())
        # Negative user ids can never be a Discord user's, so a shared Redis is safe.
        people = [Player(user_id=-(number * 100 + seat + 1), name=f"Seat {seat + 1}") for seat in range(low)]
        record = await self.service.create(self.game, people[0], seed=number)
        self.created.append(record.id)
        for person in people[1:]:
            await self.service.join(record.id, person)
        outcome = await self.service.start(record.id, people[0].user_id)
        self.figures.tables_used += 1
        return outcome.table

    def pick(self, record: TableRecord, rng: random.Random) -> tuple[int, str] | None:
        """A seat that may move and one of its legal choices (not timed)."""
        seats = self.service.awaited(record) or [p.seat for p in self.service.prompts(record)]
        for seat in seats:
            user_id = record.seats[seat].user_id
            choices = self.service.choices(record, user_id) if user_id is not None else []
            if user_id is not None and choices:
                return user_id, rng.choice(choices).key
        return None

    async def table_worker(self, number: int, record: TableRecord) -> TableRecord:
        """Acts at one table while the block has acts left; the table as it is then."""
        rng = self.rngs.setdefault(number, random.Random(number))  # one sequence across the blocks
        while self.left > 0:
            picking = time.process_time()
            move = self.pick(record, rng) if record.status is TableStatus.PLAYING else None
            self.figures.pick_cpu += time.process_time() - picking
            if move is None:
                record = await self.new_table(number + 1_000_000 * self.figures.tables_used)
                continue
            self.left -= 1
            record = await self.timed_act(record, *move)
        return record

    async def timed_act(self, record: TableRecord, user_id: int, key: str) -> TableRecord:
        async with self.limit:
            start = time.perf_counter()
            try:
                outcome = await self.service.act(record.id, user_id, key)
            except TableError:
                self.figures.refused += 1
                return await self.service.get(record.id)
            self.figures.act_seconds.append(time.perf_counter() - start)
        self.state_size = max(self.state_size, len(outcome.table.state or ""))
        return outcome.table


async def _gather_limited(calls: list[Callable[[], Awaitable[Any]]], concurrency: int) -> list[Any]:
    limit = asyncio.Semaphore(concurrency)

    async def one(call: Callable[[], Awaitable[Any]]) -> Any:
        async with limit:
            return await call()

    return await asyncio.gather(*(one(call) for call in calls))


async def _roundtrips(redis: Redis, count: int, keys: int, size: int, concurrency: int) -> list[float]:
    value = b"x" * max(size, 1)
    samples: list[float] = []

    async def get_set(n: int) -> None:
        key = BENCH_KEY.format(n=n % keys)
        start = time.perf_counter()
        await redis.get(key)
        await redis.set(key, value)
        samples.append(time.perf_counter() - start)

    await _gather_limited([partial(get_set, n) for n in range(count)], concurrency)
    await redis.delete(*(BENCH_KEY.format(n=n) for n in range(keys)))
    return samples


async def bench(
    redis: Redis, *, game: str, games: GameMap, tables: int, acts: int, concurrency: int
) -> Figures:
    """Create ``tables`` tables, time ``acts`` acts across them and as many
    GET+SET round trips, taking turns in :data:`BLOCKS` blocks."""
    service = TableService(TableStore(redis), games=games)
    run = _Bench(service, game, 0, concurrency)
    try:
        records = await _gather_limited([partial(run.new_table, n) for n in range(tables)], concurrency)
        for block in range(BLOCKS):
            run.left = acts * (block + 1) // BLOCKS - acts * block // BLOCKS
            before = len(run.figures.act_seconds)
            started, cpu = time.perf_counter(), time.process_time()
            records = list(await asyncio.gather(*(run.table_worker(n, r) for n, r in enumerate(records))))
            run.figures.act_wall += time.perf_counter() - started
            run.figures.act_cpu += time.process_time() - cpu
            count = max(len(run.figures.act_seconds) - before, 1)
            trips = await _roundtrips(redis, count, tables, run.state_size, concurrency)
            run.figures.roundtrip_seconds += trips
    finally:
        await _gather_limited([partial(service.store.delete, t) for t in run.created], concurrency)
    return run.figures


def peak_rss_mib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def report(figures: Figures, out: TextIO) -> None:
    acts, trips = figures.act_seconds, figures.roundtrip_seconds
    if not acts:
        out.write("No act was timed (every game ended at once?).\n")
        return
    act_med, act_p99 = statistics.median(acts) * 1e3, percentile(acts, 0.99) * 1e3
    trip_med, trip_p99 = statistics.median(trips) * 1e3, percentile(trips, 0.99) * 1e3
    rate = len(acts) / figures.act_wall if figures.act_wall > 0 else float("nan")
    # New tables made on the way stay in: a table's life includes its start.
    cpu_per_act = (figures.act_cpu - figures.pick_cpu) / len(acts)
    capacity = 1 / cpu_per_act if cpu_per_act > 0 else float("nan")
    width = 48
    out.write(
        f"{'act (load → apply → CAS save → log append)':<{width}}"
        f"median {act_med:8.3f} ms   p99 {act_p99:8.3f} ms   {rate:,.0f} acts/s\n"
        f"{'Redis GET+SET round trip (same client)':<{width}}"
        f"median {trip_med:8.3f} ms   p99 {trip_p99:8.3f} ms\n"
        f"{'ratio act / GET+SET':<{width}}"
        f"median {act_med / trip_med:8.1f} ×    p99 {act_p99 / trip_p99:8.1f} ×\n"
        f"{'CPU per act (this process, moves chosen apart)':<{width}}"
        f"{cpu_per_act * 1e3:8.3f} ms   so one process carries {capacity:,.0f} acts/s\n"
        f"{'peak RSS':<{width}}{peak_rss_mib():.1f} MiB\n"
    )
    out.write("(times under load include waiting for CPU; --concurrency 1 shows the bare cost)\n")
    if figures.refused:
        out.write(f"({figures.refused} acts refused and not timed)\n")


@contextlib.asynccontextmanager
async def _private_redis(executable: str) -> AsyncIterator[tuple[Redis, str]]:
    """A throwaway redis-server on a free TCP port (TCP and append-only, like production)."""
    with tempfile.TemporaryDirectory() as folder:
        server = RedisServer(Path(folder), executable=executable, tcp=True)
        # The client the bot itself uses (timeouts, retries, commands packed by hiredis).
        client = redis_client(await asyncio.to_thread(server.start))
        try:
            yield client, f"a private redis-server on port {server.port} (append-only, like compose.yaml)"
        finally:
            await client.aclose()
            server.stop()


@contextlib.asynccontextmanager
async def connect(redis_url: str | None) -> AsyncIterator[tuple[Redis, str]]:
    if redis_url:
        client = await reach(redis_url)
        try:
            yield client, "REDIS_URL"
        finally:
            await client.aclose()
        return
    executable = shutil.which("redis-server")
    if executable is None:
        raise LookupError("the benchmark needs a real Redis: set REDIS_URL or install redis-server")
    async with _private_redis(executable) as found:
        yield found


async def _main(
    *, game: str, games: GameMap, tables: int, acts: int, concurrency: int, redis_url: str | None, out: TextIO
) -> int:
    try:
        async with connect(redis_url) as (redis, where):
            setting = f"{tables} tables, {acts} acts, concurrency {concurrency}"
            out.write(f"gametable bench: {game} on {where}; {setting}\n")
            figures = await bench(
                redis, game=game, games=games, tables=tables, acts=acts, concurrency=concurrency
            )
    except LookupError as missing:
        out.write(f"gametable bench: {missing}.\n")
        return 1
    except RedisUnavailable as error:
        out.write(f"gametable bench: {error}\n")
        return 1
    report(figures, out)
    return 0


def run(
    *,
    tables: int = 200,
    acts: int = 2000,
    concurrency: int = 50,
    game: str | None = None,
    redis_url: str | None = None,
    games: GameMap | None = None,
    out: TextIO = sys.stdout,
) -> int:
    """The whole benchmark; returns a process exit code."""
    if games is None:
        from engines.registry import GAMES

        games = GAMES
    if not games:
        out.write("gametable bench: no game is registered yet, so there is nothing to benchmark.\n")
        return 0
    if game is not None and game not in games:
        out.write(f"gametable bench: there is no game {game!r}. Games: {', '.join(sorted(games))}.\n")
        return 2
    # GAMES holds only real games, in registration order; the first is the default.
    chosen = game if game is not None else next(iter(games))
    with collector.serving():  # as in `gametable run`: the figures are a serving process's
        return asyncio.run(
            _main(
                game=chosen,
                games=games,
                tables=tables,
                acts=acts,
                concurrency=concurrency,
                redis_url=redis_url,
                out=out,
            )
        )


if __name__ == "__main__":
    import os

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--acts", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--game")
    cli = parser.parse_args()
    sys.exit(
        run(
            tables=cli.tables,
            acts=cli.acts,
            concurrency=cli.concurrency,
            game=cli.game,
            redis_url=os.environ.get("REDIS_URL"),
        )
    )
