"""Bytes in Redis per table: live (in play, half-way through) and archived
(over: compressed log, record with the result, no index entries).

Plays ``--games`` games of one game to their end with random legal moves
through :class:`bot.service.tables.TableService`, reading ``MEMORY USAGE`` of each
table's keys half-way and at the end, and prints the means beside the log's
size as JSON lines and compressed.

Run: ``python -m benchmarks.bench_storage [--games 20] [--game KEY]``. Uses
REDIS_URL, else a private ``redis-server`` on a free port; deletes what it wrote.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
from typing import TextIO

from redis.asyncio import Redis

from benchmarks.bench_act import GameMap, _Bench, connect
from bot.service.tables import TableService
from storage import keys
from storage.records import TableStatus
from storage.retention import archive_key, pack
from storage.store import TableStore

MAX_ACTS = 5_000


async def table_bytes(redis: Redis, table_id: str) -> int:
    # Not the outbox: the bot drains it as it announces (nothing drains it here).
    table = keys.table(table_id)
    names = [table, keys.log(table_id), archive_key(table_id), f"{table}:writes"]
    return sum([await redis.memory_usage(name) or 0 for name in names])


async def measure(redis: Redis, game: str, games: GameMap, count: int) -> dict[str, list[int]]:
    service = TableService(TableStore(redis), games=games)
    run = _Bench(service, game, acts=MAX_ACTS * count, concurrency=1)
    figures: dict[str, list[int]] = {"live": [], "archived": [], "log json": [], "log compressed": []}
    try:
        for number in range(count):
            record, rng, acts = await run.new_table(number), random.Random(number), 0
            while record.status is TableStatus.PLAYING and acts < MAX_ACTS:
                move = run.pick(record, rng)
                if move is None:
                    break
                if acts == 40:
                    figures["live"].append(await table_bytes(redis, record.id))
                record, acts = await run.timed_act(record, *move), acts + 1
            if record.status.active:
                continue
            figures["archived"].append(await table_bytes(redis, record.id))
            lines = [entry.model_dump_json().encode() for entry in await service.store.log(record.id)]
            figures["log json"].append(sum(len(line) + 1 for line in lines))
            figures["log compressed"].append(len(pack(lines)))
    finally:
        for table_id in run.created:
            await service.store.delete(table_id)
            await redis.delete(archive_key(table_id))
    return figures


async def _main(game: str, games: GameMap, count: int, redis_url: str | None, out: TextIO) -> int:
    async with connect(redis_url) as (redis, where):
        out.write(f"gametable storage bench: {count} games of {game} on {where}\n")
        figures = await measure(redis, game, games, count)
    for name, values in figures.items():
        mean = f"{statistics.mean(values):>10,.0f} bytes" if values else "         — (none)"
        out.write(
            f"{'per ' + ('table in play' if name == 'live' else 'finished game, ' + name):<40}{mean}"
            f"   ({len(values)} tables)\n"
        )
    return 0


def run(
    *,
    games_count: int = 20,
    game: str | None = None,
    redis_url: str | None = None,
    games: GameMap | None = None,
    out: TextIO = sys.stdout,
) -> int:
    if games is None:
        from engines.registry import GAMES

        games = GAMES
    chosen = game if game is not None else next(iter(games))
    return asyncio.run(_main(chosen, games, games_count, redis_url, out))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game")
    cli = parser.parse_args()
    sys.exit(run(games_count=cli.games, game=cli.game, redis_url=os.environ.get("REDIS_URL")))
