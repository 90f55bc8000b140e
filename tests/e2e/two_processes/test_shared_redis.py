"""Two bot processes, each running one of two shards under the offline harness, on one Redis:
each serves the clicks of its own guild, and their deadline sweepers and outbox drainers race for
every table, whatever guild it is in. Every reminder, timeout, announcement and table message edit
happens exactly once across both processes, and both do some of the work."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from bot.service.clocks import reminder_at
from storage.store import TableStore
from tests.e2e.two_processes.bots import BotProcess, bot_processes
from tests.support.clock import Clock

START = Clock().now  # the processes' clock before the test moves it
HOUR = 3600.0  # the "relaxed" pace the tables are created with
RAN_OUT = "ran out of time"


@dataclass
class Table:
    id: str
    channel: int
    message: int
    owner: int  # the process running its guild's shard


@dataclass
class Due:
    """What the sweeper owes one table at ``now``: seats to remind and seats to time out."""

    remind: set[int] = field(default_factory=set)
    time_out: set[int] = field(default_factory=set)


async def both(bots: list[BotProcess], op: str, first: int = 0, **args: Any) -> list[dict[str, Any]]:
    """The same step in every process at once (``first`` gets it first); replies in process order."""
    order = [bots[(first + i) % len(bots)] for i in range(len(bots))]
    replies = await asyncio.gather(*(bot.call(op, **args) for bot in order))
    return [replies[order.index(bot)] for bot in bots]


async def share(bots: list[BotProcess]) -> None:
    """Let each process's Discord know the threads and messages the other made or changed."""
    exported = await both(bots, "export")
    for index, bot in enumerate(bots):
        for other, shared in enumerate(exported):
            if other != index and (shared["channels"] or shared["messages"]):
                await bot.call("adopt", **shared)


async def owed(store: TableStore, tables: list[Table], now: float) -> dict[str, Due]:
    owed = {}
    for table in tables:
        record = await store.get(table.id)
        assert record is not None, table.id
        due = Due()
        for seat, deadline in record.clocks.due.items():
            if deadline <= now:
                due.time_out.add(seat)
            elif (at := reminder_at(record, seat)) is not None and at <= now:
                due.remind.add(seat)
        owed[table.id] = due
    return owed


def told(replies: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(process, request) for every message sent or edited that Discord took."""
    return [
        (index, r)
        for index, reply in enumerate(replies)
        for r in reply["requests"]
        if r["kind"] in ("message_create", "message_edit") and r["error"] is None
    ]


def no_twice(done: list[tuple[int, dict[str, Any]]]) -> None:
    """Nothing said twice: the same text to the same place (a DM by its user: each process opens
    its own DM channel) in one step is one announcement told by both processes, or twice by one."""
    said = Counter(
        (r["method"], r["dm_user_id"] or r["path"], json.dumps(r["json"], sort_keys=True)) for _, r in done
    )
    twice = [what for what, times in said.items() if times > 1]
    assert not twice, f"told more than once: {twice}"


def ran_out(done: list[tuple[int, dict[str, Any]]], thread: int | None) -> int:
    return sum(
        str((r["json"] or {}).get("content")).count(RAN_OUT)
        for _, r in done
        if r["kind"] == "message_create" and r["channel_id"] == thread
    )


def check_told(
    done: list[tuple[int, dict[str, Any]]], tables: list[Table], due: dict[str, Due], records: dict[str, Any]
) -> None:
    """Each table's message redrawn once, each reminder sent once to its seat, each timeout (in the
    log: ``records[id]`` is the table and its timeouts of the step) told once in the thread."""
    message_of = {t.message: t.id for t in tables}
    edits = Counter(message_of[r["message_id"]] for _, r in done if r["kind"] == "message_edit")
    assert edits == Counter({t.id: 1 for t in tables}), edits
    for table in tables:
        record, timeouts = records[table.id]
        seats = {s.user_id: n for n, s in enumerate(record.seats)}
        reminders = [
            seats[r["dm_user_id"]]
            for _, r in done
            if r["dm_user_id"] in seats
            and f"**Table {table.id}**" in str(r["json"].get("content"))
            and "⏰" in str(r["json"].get("content"))
        ]
        assert sorted(reminders) == sorted(due[table.id].remind), (table.id, reminders, due)
        assert sorted(timeouts) == sorted(due[table.id].time_out), (table.id, timeouts, due)
        assert ran_out(done, record.thread_id) == len(timeouts), table.id


async def test_two_processes_share_deadlines_and_announcements(
    redis: Redis, redis_url: str, tmp_path: Path
) -> None:
    store = TableStore(redis)
    quiet = {"TURN_TIMEOUT": str(HOUR), "SWEEP_INTERVAL": "3600", "OUTBOX_INTERVAL": "3600"}
    async with bot_processes(2, redis_url, tmp_path, **quiet) as bots:
        worlds = await both(bots, "hello")
        guilds = [[g["id"] for g in w["guilds"]] for w in worlds]
        assert guilds[0] == guilds[1] and worlds[0]["users"] == worlds[1]["users"], "one Discord"
        owner = {g["id"]: index for index, w in enumerate(worlds) for g in w["guilds"] if g["own"]}
        assert sorted(owner.values()) == [0, 1], "each process runs the shard of one guild"

        # Tables in both guilds, each opened (slash command, Join, Start) through its guild's process.
        mine = [[c for g in w["guilds"] if g["own"] for c in g["channels"]] for w in worlds]
        opened = await asyncio.gather(*(bot.call("open", channels=mine[i]) for i, bot in enumerate(bots)))
        tables = [Table(**t, owner=index) for index, reply in enumerate(opened) for t in reply["tables"]]
        await share(bots)
        await asyncio.gather(
            *(bot.call("act", tables=[t.id for t in tables if t.owner == i]) for i, bot in enumerate(bots))
        )
        await share(bots)

        guild_of = {c: g["id"] for g in worlds[0]["guilds"] for c in g["channels"]}
        table_of = {t.message: t for t in tables}
        edited_by: list[set[str]] = [set(), set()]
        foreign = 0  # tables told by the process that does not run their guild
        now, race = START, 0
        # Half time (reminder), a tenth left (reminder), time out; twice; the second timeout with
        # Discord failing every new message, so the announcements wait for the drainers.
        for rounds in range(2):
            for step, failing in ((HOUR / 2, False), (HOUR * 0.4, False), (HOUR * 0.1 + 1, rounds == 1)):
                now += step
                swept = now
                await both(bots, "clock", now=now)
                due = await owed(store, tables, now)
                assert all(d.remind or d.time_out for d in due.values()), due
                await both(bots, "fail_posts", on=failing)
                replies = await both(bots, "sweep", first=race % 2)  # each round another goes first
                race += 1
                done = told(replies)
                no_twice(done)
                failed = [r for reply in replies for r in reply["requests"] if r["error"] is not None]
                assert bool(failed) == failing, failed
                if failing:
                    await both(bots, "fail_posts", on=False)
                    now += 10  # past the outbox's first retry
                    await both(bots, "clock", now=now)
                    drained = told(await both(bots, "drain", first=race % 2))
                    race += 1
                    assert not [r for _, r in drained if r["kind"] == "message_edit"], "redrawn once, before"
                    done += drained
                    no_twice(done)
                records = {}
                for table in tables:
                    log = await store.log(table.id)
                    timeouts = [
                        e.seat for e in log if e.kind == "timeout" and e.seat is not None and e.at == swept
                    ]
                    records[table.id] = (await store.get(table.id), timeouts)
                check_told(done, tables, due, records)
                for index, r in done:
                    if r["kind"] == "message_edit":
                        table = table_of[r["message_id"]]
                        edited_by[index].add(table.id)
                        foreign += owner[guild_of[table.channel]] != index
                await share(bots)

        for table in tables:
            assert await store.outbox.pending(table.id) == [], f"table {table.id}: news never told"
        assert all(edited_by), f"both processes do some of the work: {edited_by}"
        assert foreign, "a sweeper tells tables of guilds its process does not run"
