"""A bounded load generator: many tables played by several processes against
one Redis or a local Redis Cluster, on loopback only.

Each worker process creates its share of ``--tables`` tables and plays them
with random legal moves for ``--seconds``: at full speed (every table moves
as soon as its last move is saved, ``--concurrency`` at a time per process) or
at human pace (each table moves after a random pause of about ``--think``
seconds). It prints acts/s, p50/p99 of one act, CPU per act (all workers'
user+system time over their acts) and Redis's memory.

Run: ``python -m benchmarks.load [--tables 1000] [--processes 2] [--seconds 20]
[--pace full|human] [--cluster]``. Without REDIS_URL it starts a private
redis-server (or, with ``--cluster``, a local 3-master cluster); a REDIS_URL
must point at 127.0.0.1 / localhost. Every table it made is deleted after.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from redis.asyncio import Redis

from benchmarks.bench_act import _Bench, percentile
from bot.ops import collector
from bot.service.tables import TableService
from storage.cluster import LocalCluster
from storage.connect import connect
from storage.records import TableStatus
from storage.server import RedisServer
from storage.store import TableStore

LIMITS = {"tables": 10_000, "processes": 8, "seconds": 300}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


async def _drive(
    url: str, game: str, first: int, count: int, seconds: float, pace: str, think: float, concurrency: int
) -> tuple[list[float], float, int]:
    redis = connect(url)
    service = TableService(TableStore(redis))
    run = _Bench(service, game, acts=10**9, concurrency=concurrency)
    try:
        records = [await run.new_table(first + n) for n in range(count)]
        cpu = time.process_time()
        stop = time.monotonic() + seconds

        async def table(number: int) -> None:
            record, rng = records[number], random.Random(first + number)
            while time.monotonic() < stop:
                if pace == "human":
                    await asyncio.sleep(rng.expovariate(1 / think))
                move = run.pick(record, rng) if record.status is TableStatus.PLAYING else None
                if move is None:
                    record = await run.new_table(first + number + 1_000_000 * run.figures.tables_used)
                    continue
                record = await run.timed_act(record, *move)

        await asyncio.gather(*(table(n) for n in range(count)))
        spent = time.process_time() - cpu
        return run.figures.act_seconds, spent, await _memory(redis)
    finally:
        for table_id in run.created:
            await service.store.delete(table_id)
        await redis.aclose()


def _worker(args: tuple[str, str, int, int, float, str, float, int], out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    with collector.serving():  # each worker is a serving process, tuned as `gametable run` tunes one
        out.put(asyncio.run(_drive(*args)))


async def _memory(redis: Redis) -> int:
    """Redis's used memory in bytes (a cluster's: its nodes' added up)."""
    info = await redis.info("memory")
    if "used_memory" not in info:  # a cluster client answers per node
        return sum(int(node["used_memory"]) for node in info.values())
    return int(info["used_memory"])


def load(
    url: str,
    *,
    game: str,
    tables: int,
    processes: int,
    seconds: float,
    pace: str,
    think: float,
    concurrency: int,
) -> str:
    share = max(1, tables // processes)
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    workers = [
        multiprocessing.Process(
            target=_worker,
            args=((url, game, n * share * 10, share, seconds, pace, think, concurrency), queue),
        )
        for n in range(processes)
    ]
    for worker in workers:
        worker.start()
    results = [queue.get(timeout=seconds + 600) for _ in workers]
    for worker in workers:
        worker.join()
    samples = [s for result in results for s in result[0]]
    cpu = sum(result[1] for result in results)
    memory = max(result[2] for result in results)
    if not samples:
        return "no act was timed\n"
    return (
        f"{len(samples):,} acts in {seconds:.0f} s by {processes} processes"
        f" over {tables:,} tables ({pace} pace)\n"
        f"acts/s {len(samples) / seconds:,.0f}   p50 {statistics.median(samples) * 1e3:.2f} ms"
        f"   p99 {percentile(samples, 0.99) * 1e3:.2f} ms   CPU per act {cpu / len(samples) * 1e3:.2f} ms\n"
        f"Redis used memory at the end {memory / 2**20:.1f} MiB (outboxes undrained: no bot tells them)\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--pace", choices=["full", "human"], default="full")
    parser.add_argument("--think", type=float, default=5.0, help="mean seconds between moves (human pace)")
    parser.add_argument("--concurrency", type=int, default=50, help="acts in flight per process (full)")
    parser.add_argument("--game", default="spheres-of-life")
    parser.add_argument("--cluster", action="store_true", help="a local 3-master Redis Cluster")
    cli = parser.parse_args(argv)
    for name, most in LIMITS.items():
        if not 0 < getattr(cli, name) <= most:
            parser.error(f"--{name} must be between 1 and {most}")
    url = os.environ.get("REDIS_URL")
    if url and (urlsplit(url).hostname or "localhost") not in LOOPBACK:
        parser.error("the load generator runs against a Redis on this machine only (127.0.0.1)")
    with tempfile.TemporaryDirectory() as folder:
        server: LocalCluster | RedisServer | None = None
        if not url:
            server = LocalCluster(Path(folder)) if cli.cluster else RedisServer(Path(folder), tcp=True)
            url = server.start()
        try:
            where = "a local 3-master Redis Cluster" if cli.cluster else "one Redis"
            print(f"load on {where} ({url})")
            print(
                load(
                    url,
                    game=cli.game,
                    tables=cli.tables,
                    processes=cli.processes,
                    seconds=cli.seconds,
                    pace=cli.pace,
                    think=cli.think,
                    concurrency=cli.concurrency,
                ),
                end="",
            )
        finally:
            if server is not None:
                server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
