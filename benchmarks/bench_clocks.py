"""What the clocks cost: the deadline sweep with many live tables and reminders
scheduled, and the table lists a page at a time: ``/tables`` for players who
sit at 100, 1,000 and 10,000 tables, and ``/table list`` in channels of 1,000
and 10,000 tables, beside what reading every one of those tables costs.

Every table is a five-seat Spheres of Life game in its first phase (five seats
choosing a Hero in secret: five clocks), cloned from one real table under new
ids, with its clocks started at random over the last day of a two-day pace.
Each clock holds two reminders (half time, a tenth left), so 10,000 tables hold
100,000 scheduled reminders; each table sits in the deadline index once, at its
next wake-up. The sweep is then timed with nothing due, and over successive
one-hour steps, each waking the tables whose reminders or timeouts fell due.

Run: ``python -m benchmarks.bench_clocks [--tables 10000] [--steps 6] [--mine 100,1000,10000]``.
Uses REDIS_URL, else a private ``redis-server`` on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from typing import TextIO

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from benchmarks.bench_act import connect, peak_rss_mib
from bot.app.ui import table_pages
from bot.app.ui.table_pages import HERE_SIZE
from bot.service import clocks
from bot.service.my_tables import PAGE_SIZE
from bot.service.tables import Player, TableService
from storage import keys
from storage.listing import list_keys
from storage.records import TableRecord
from storage.store import TableStore

SEATS = 5
PACE = 2 * clocks.DAY
STEP = 3600.0
ME = 42  # the players ME, ME + 1, ... sit at the first ``mine[0]``, ``mine[1]``, ... tables
BIG_CHANNEL, SMALL_CHANNEL = 7, 8  # every table is in channel 7; the first 1,000 also in thread 8
SMALL = 1000
BATCH = 50  # tables written, or deleted, at once: within the client's connection pool


async def _template(service: TableService) -> TableRecord:
    record = await service.create(
        "spheres-of-life", Player(1, "P1"), channel_id=7, guild_id=3, turn_timeout=PACE, seed=1
    )
    for n in range(2, SEATS + 1):
        await service.join(record.id, Player(n, f"P{n}"))
    return (await service.start(record.id, 1)).table


def _clone(template: TableRecord, index: int, now: float, rng: random.Random, mine: list[int]) -> TableRecord:
    record = template.model_copy(deep=True)
    record.id = f"bench{index:07d}"
    record.message_id = 10_000 + index
    for seat, count in enumerate(mine):
        if index < count:
            record.seats[seat].user_id = ME + seat
    if index < SMALL:
        record.thread_id = SMALL_CHANNEL
    record.headline = "Choose your Hero"
    age = rng.uniform(0, PACE / 2)  # no reminder sent yet: ten scheduled per table
    c = record.clocks
    for seat in range(SEATS):
        started = now - age + seat * 60.0
        c.started[seat], c.due[seat] = started, started + PACE
        c.reminded[seat] = 0
        while (at := clocks.reminder_at(record, seat)) is not None and at <= now:
            c.reminded[seat] += 1
    record.deadline = clocks.wake_up(record)
    return record


async def _populate(service: TableService, template: TableRecord, tables: int, mine: list[int]) -> int:
    store, redis, now = service.store, service.store.redis, service.clock()
    rng = random.Random(5)
    reminders = 0
    for first in range(0, tables, BATCH):
        batch = [_clone(template, i, now, rng, mine) for i in range(first, min(tables, first + BATCH))]
        pipe = redis.pipeline(transaction=False)
        for record in batch:
            meta = record.model_dump_json()
            fields = ["version", str(record.version), "meta", meta, "state", record.state or ""]
            pipe.hset(keys.table(record.id), items=list(fields))
            reminders += sum(2 - n for n in record.clocks.reminded.values())
        await pipe.execute()
        await asyncio.gather(*(store.update_indexes(r) for r in batch))
    return reminders


async def bench(redis: Redis, *, tables: int, steps: int, mine: list[int], out: TextIO) -> None:
    now = [time.time()]
    service = TableService(TableStore(redis), clock=lambda: now[0])
    template = await _template(service)
    await service.store.delete(template.id)
    started = time.perf_counter()
    reminders = await _populate(service, template, tables, mine)
    out.write(
        f"set up {tables:,} live tables ({SEATS} clocks each) holding {reminders:,} scheduled reminders "
        f"in {time.perf_counter() - started:.1f} s\n"
    )
    out.write(await _spread(redis))
    idle = []
    for _ in range(20):
        t0 = time.perf_counter()
        await service.expire(now[0])
        idle.append(time.perf_counter() - t0)
    out.write(f"sweep with nothing due          median {statistics.median(idle) * 1e3:8.2f} ms\n")
    for _ in range(steps):
        now[0] += STEP
        t0 = time.perf_counter()
        outcomes = await service.expire(now[0])
        spent = time.perf_counter() - t0
        told = sum(1 for o in outcomes for e in o.events if e.kind == "reminder")
        ran_out = sum(1 for o in outcomes for e in o.events if "ran out of time" in e.text)
        per = spent / len(outcomes) * 1e3 if outcomes else 0.0
        out.write(
            f"sweep after {STEP / 60:.0f} min: {len(outcomes):4d} tables woken, {told:4d} reminders, "
            f"{ran_out:4d} timeouts  {spent * 1e3:8.1f} ms  ({per:.2f} ms a table)\n"
        )
    await _lists(service, tables, mine, out)
    out.write(f"peak RSS {peak_rss_mib():.1f} MiB\n")


async def _spread(redis: Redis) -> str:
    """How the deadline index is spread: tables per bucket, and the Redis nodes serving them."""
    counts = [await redis.zcard(key) for key in keys.DEADLINE_BUCKETS]
    nodes = 1
    if isinstance(redis, RedisCluster):
        nodes = len({redis.get_node_from_key(key).name for key in keys.DEADLINE_BUCKETS})
    return (
        f"deadline index: {sum(counts):,} tables in {len(counts)} buckets "
        f"({min(counts)} to {max(counts)} each) on {nodes} Redis node{'s' if nodes > 1 else ''}\n"
    )


async def _lists(service: TableService, tables: int, mine: list[int], out: TextIO) -> None:
    """Each list's first, middle and last page, as the commands draw them (all
    but Discord), then what reading every table of the list takes."""
    out.write(f"table lists a page at a time ({PAGE_SIZE} lines in /tables, {HERE_SIZE} in /table list):\n")
    cases = [(f"/tables at {n:,} tables", "mine", ME + seat, n, PAGE_SIZE) for seat, n in enumerate(mine)]
    for channel, n in ((SMALL_CHANNEL, min(SMALL, tables)), (BIG_CHANNEL, tables)):
        cases.append((f"/table list, {n:,} tables", "here", channel, n, HERE_SIZE))
    for name, kind, who, count, size in cases:
        pages = max(1, -(-count // size))
        times = []
        for page in (0, pages // 2, pages - 1):
            start = page * size
            for _ in range(10):
                t0 = time.perf_counter()
                draw = table_pages.mine if kind == "mine" else table_pages.here
                drawn = await draw(service, who, start)
                times.append(time.perf_counter() - t0)
            assert drawn["embed"] is not None or drawn["content"], drawn
        every = time.perf_counter()
        found = await (service.store.of_user(who) if kind == "mine" else service.store.in_channel(who))
        every = time.perf_counter() - every
        out.write(
            f"  {name:<26} a page: median {statistics.median(times) * 1e3:6.2f} ms  "
            f"max {max(times) * 1e3:6.2f} ms   (reading all {len(found):,} tables: {every * 1e3:8.1f} ms)\n"
        )


async def _cleanup(redis: Redis, tables: int) -> None:
    """Delete every bench table with its keys and index entries, and nothing else."""
    store = TableStore(redis)
    for first in range(0, tables, BATCH):
        ids = [f"bench{i:07d}" for i in range(first, min(tables, first + BATCH))]
        await asyncio.gather(*(store.delete(table_id) for table_id in ids))
    # The lists keep a short-lived mark of each table taken out of them: drop the bench's lists whole.
    scopes = [f"user:{n}" for n in (*range(1, SEATS + 1), *range(ME, ME + SEATS))]
    scopes += [f"channel:{BIG_CHANNEL}", f"channel:{SMALL_CHANNEL}", "guild:3"]
    await redis.delete(*(key for scope in scopes for key in list_keys(scope)))


async def _main(tables: int, steps: int, mine: list[int], out: TextIO) -> int:
    try:
        async with connect(os.environ.get("REDIS_URL")) as (redis, where):
            out.write(f"gametable clocks bench on {where}\n")
            try:
                await bench(redis, tables=tables, steps=steps, mine=mine, out=out)
            finally:
                await _cleanup(redis, tables)
    except LookupError as missing:
        out.write(f"gametable clocks bench: {missing}.\n")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument(
        "--mine", default="100,1000,10000", help="tables each listed player sits at (at most five players)"
    )
    args = parser.parse_args(argv)
    mine = [min(int(n), args.tables) for n in args.mine.split(",")][:SEATS]
    return asyncio.run(_main(args.tables, args.steps, mine, sys.stdout))


if __name__ == "__main__":
    sys.exit(main())
