"""One bot process of the two-process test: the real bot with the shards of ``SHARD_IDS`` (settings
read from the environment, as ``gametable run`` reads them) under the offline harness, on the Redis
of ``REDIS_URL``, driven by the test through one JSON line per step on stdin, answered by one JSON
line on stdout (``{"ok": true, ...}``, or ``{"ok": false, "error": ...}`` with what went wrong,
Discord's refusals included).

Both processes build the same world (guilds, channels, users: the same ids), so they share one
Discord; the harness delivers each guild's gateway events only to the process running its shard.

Run by ``tests/e2e/two_processes/bots.py``: ``python -m tests.e2e.two_processes.worker``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sys
import traceback
from collections.abc import Awaitable, Callable
from typing import IO, Any

from bot.app.application import build_bot
from bot.ops.settings import Settings
from bot.service.tables import TableService
from storage.connect import connect
from storage.store import TableStore
from tests.e2e.entities import Guild, User
from tests.e2e.harness import DiscordHarness
from tests.e2e.records import Fault, Request
from tests.e2e.tables import act_by_clicks, button
from tests.e2e.two_processes.mirror import Mirror
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

GUILDS = ("Test Guild", "Second Guild")
TABLES_PER_GUILD = 4
PLAYERS = ("ann", "bob")


def shared_world(h: DiscordHarness) -> dict[str, list[User]]:
    """The same world in every process: two guilds (one per shard of two), a channel per table,
    two players per guild (members of both guilds)."""
    guilds = [h.guild, h.create_guild(GUILDS[1])]
    players: dict[str, list[User]] = {}
    for guild in guilds:
        for index in range(1, TABLES_PER_GUILD):
            h.create_channel(f"table-{index}", guild)
        players[str(guild.id)] = [h.create_user(f"{name}-{guild.name}", guild=guild) for name in PLAYERS]
    for users in players.values():
        for guild in guilds:
            for user in users:
                if user.id not in guild.members:
                    h.add_member(guild, user)
    return players


class Worker:
    def __init__(self, settings: Settings, h: DiscordHarness, clock: Clock, service: TableService) -> None:
        self.settings, self.h, self.clock, self.service = settings, h, clock, service
        self.players: dict[str, list[User]] = {}
        self.mirror: Mirror | None = None
        self.failing: Fault | None = None
        self.rng = random.Random(sum(settings.shard_ids or [0]))

    @property
    def bot(self) -> Any:
        return self.h.bot

    def own(self, guild: Guild) -> bool:
        return (guild.id >> 22) % (self.settings.shard_count or 1) in (self.settings.shard_ids or [0])

    async def hello(self) -> dict[str, Any]:
        h = self.h
        guilds = [{"id": g.id, "own": self.own(g), "channels": [c.id for c in g.channels]} for g in h.guilds]
        return {"guilds": guilds, "users": {u.name: u.id for u in h.users.values()}}

    async def open(self, channels: list[int]) -> dict[str, Any]:
        """A table in each channel: the guild's first player hosts, the second joins, the host starts."""
        h, tables = self.h, []
        for channel_id in channels:
            channel = h.channels[channel_id]
            assert channel.guild is not None and self.own(channel.guild), "clicks go to the guild's shard"
            host, guest = self.players[str(channel.guild.id)]
            created = await h.slash(
                host, "table create", {"game": "high-card", "pace": "relaxed"}, channel=channel
            )
            message = created.message
            assert message is not None and not created.ephemeral, created.content
            joined = await h.click(guest, message, button(message, "Join"))
            assert joined.ephemeral and "joined" in (joined.content or ""), joined.content
            await h.click(host, message, button(message, "Start"))
            [record] = await self.service.store.in_channel(channel_id)
            tables.append({"id": record.id, "channel": channel_id, "message": message.id})
        return {"tables": tables}

    async def act(self, tables: list[str]) -> dict[str, Any]:
        """One move at each table, by the seat it waits for, through the table's buttons."""
        for table_id in tables:
            record = await self.service.get(table_id)
            seat = self.service.awaited(record)[0]
            user = self.h.users[record.seats[seat].user_id]  # type: ignore[index]
            assert record.message_id is not None
            message = self.h.messages[record.message_id]
            await act_by_clicks(self.h, self.service, table_id, user, message, self.rng)
        return {}

    async def set_clock(self, now: float) -> dict[str, Any]:
        self.clock.now = now
        return {}

    async def fail_posts(self, on: bool) -> dict[str, Any]:
        """Discord failing every new message (500) until turned off: announcements wait in the outbox."""
        if on and self.failing is None:
            self.failing = self.h.fail(
                "POST /channels/*/messages", status=500, message="Internal Server Error"
            )
        elif not on and self.failing is not None:
            self.h.faults.remove(self.failing)
            self.failing = None
        return {}

    async def sweep(self) -> dict[str, Any]:
        """One pass of the deadline sweeper (which tells the tables it timed out at once)."""
        start = len(self.h.requests)
        await self.bot.sweep_once()
        await self.h.settle()
        return {"requests": [_request(r) for r in self.h.requests[start:]]}

    async def drain(self) -> dict[str, Any]:
        """One pass of the outbox drainer."""
        start = len(self.h.requests)
        await self.bot.drain_once()
        await self.h.settle()
        return {"requests": [_request(r) for r in self.h.requests[start:]]}

    async def export(self) -> dict[str, Any]:
        assert self.mirror is not None
        return self.mirror.export()

    async def adopt(self, channels: list[Any], messages: list[Any]) -> dict[str, Any]:
        assert self.mirror is not None
        self.mirror.adopt({"channels": channels, "messages": messages})
        return {}


def _request(r: Request) -> dict[str, Any]:
    return {
        "method": r.method,
        "path": r.path,
        "kind": r.kind,
        "json": r.json,
        "channel_id": r.channel_id,
        "dm_user_id": r.dm_user_id,
        "message_id": r.message_id,
        "error": r.error,
    }


async def serve(replies: IO[str]) -> None:
    settings = Settings()
    assert settings.redis_url is not None and settings.shard_ids, (
        "REDIS_URL and SHARD_IDS are set by the test"
    )
    redis = connect(settings.redis_url)
    clock = Clock()
    service = TableService(
        TableStore(redis), clock=clock, turn_timeout=settings.turn_timeout, games={"high-card": HIGH_CARD}
    )
    h = DiscordHarness(
        lambda: build_bot(service, settings), settle_timeout=20, error_loggers=("discord", "bot")
    )
    worker = Worker(settings, h, clock, service)
    worker.players = shared_world(h)
    # From here on this process makes its own messages, threads and DM channels: its own ids.
    h.ids = h.ids.fork(1 + settings.shard_ids[0])
    loop = asyncio.get_running_loop()
    try:
        await h.start()
        worker.mirror = Mirror(h)
        ops: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
            "hello": worker.hello,
            "open": worker.open,
            "act": worker.act,
            "clock": worker.set_clock,
            "fail_posts": worker.fail_posts,
            "sweep": worker.sweep,
            "drain": worker.drain,
            "export": worker.export,
            "adopt": worker.adopt,
        }
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            step = json.loads(line)
            op = step.pop("op")
            if op == "close":
                break
            try:
                reply = {"ok": True, **await ops[op](**step)}
                h._raise_problems()  # a refusal by Discord or an error logged fails the step
            except Exception:
                reply = {"ok": False, "error": traceback.format_exc()}
            replies.write(json.dumps(reply) + "\n")
            replies.flush()
        await h.close()
        replies.write(json.dumps({"ok": True}) + "\n")
        replies.flush()
    finally:
        await h.close(check=False)
        await redis.aclose()


def main() -> None:
    # Replies get stdout to themselves: whatever else prints goes to stderr.
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(serve(replies))


if __name__ == "__main__":
    main()
