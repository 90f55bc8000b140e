"""The outbox on a real Redis: news saved with a table survives a restart, two
drainers never tell the same news twice, a drainer that dies leaves the rest to
the next, failed steps are retried alone, and a save whose reply was lost is
recognised for what it was."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable
from typing import Any

import discord
import pytest
from redis.asyncio import Redis
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.app.announce import MAX_ATTEMPTS, Announcer
from bot.service.errors import OutcomeUnknown, StorageUnavailable
from bot.service.tables import Player, TableService
from storage import keys
from storage.connect import connect
from storage.outbox import PER_BUCKET, Outbox
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.faults import inject, on_script
from tests.support.minigame import HIGH_CARD

CHANNEL, THREAD = 100, 200


class Wire:
    """The Discord network, recorded: the only stand-in in these tests."""

    def __init__(self, failing: dict[Any, int] | None = None) -> None:
        self.sent: list[tuple[Any, str]] = []
        self.failing = failing or {}  # channel -> HTTP status it answers with

    def get_partial_messageable(self, channel_id: int) -> Line:
        return Line(self, channel_id)

    async def create_dm(self, user: discord.abc.Snowflake) -> Line:
        return Line(self, ("dm", user.id))


class Line:
    def __init__(self, wire: Wire, where: Any) -> None:
        self.wire, self.where = wire, where

    async def send(self, text: str, **_: Any) -> None:
        await asyncio.sleep(0.01)  # a network round trip: lets other drainers interleave
        status = self.wire.failing.get(self.where)
        if status:
            raise discord.HTTPException(_Response(status), {"code": 0, "message": "injected"})
        self.wire.sent.append((self.where, text))


class _Response:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "injected"


async def seated(service: TableService, players: int = 3, thread: int = THREAD) -> str:
    """A started High Card table shown in a channel with a thread; its news still untold."""
    names = ["ann", "bob", "cid", "dee"][:players]
    record = await service.create("high-card", Player(1, names[0]), channel_id=CHANNEL)
    await service.attach(record.id, message_id=300, thread_id=thread)
    for number, name in enumerate(names[1:], start=2):
        await service.join(record.id, Player(number, name))
    await service.start(record.id, 1)
    return record.id


def service_on(client: Redis, clock: Clock) -> TableService:
    return TableService(TableStore(client), games={"high-card": HIGH_CARD}, clock=clock)


def told(texts: list[str]) -> list[str]:
    """The posts without the shuffle's seal, which follows the first line of a game."""
    return [t.split("\n🔒 The shuffle is sealed")[0] for t in texts]


@pytest.fixture
async def second_client(redis_url: str, redis: Redis) -> Any:
    client = connect(redis_url)
    yield client
    await client.aclose()


async def scheduled(redis: Redis) -> int:
    """Tables in the outbox's schedule, over all its buckets."""
    return sum([await redis.zcard(key) for key in keys.OUTBOX_BUCKETS])


async def test_news_saved_with_a_table_is_told_after_a_restart(redis: Redis, second_client: Redis) -> None:
    clock = Clock()
    table = await seated(service_on(redis, clock))
    # The process that saved is gone; a new one on the same Redis drains what it left.
    wire = Wire()
    announcer = Announcer(wire, service_on(second_client, clock))  # type: ignore[arg-type]
    await announcer.deliver_due()
    lines = [text for where, text in wire.sent if where == THREAD]
    assert lines[-1].endswith("The seed is published when the game ends, so anyone can check it.")
    assert told(lines) == ["bob joins the table.", "cid joins the table.", "The game of High Card begins."]
    assert await announcer.outbox.pending(table) == []
    assert await scheduled(redis) == 0


async def test_two_drainers_never_tell_the_same_news_twice(redis: Redis, second_client: Redis) -> None:
    clock = Clock()
    service = service_on(redis, clock)
    tables = [await seated(service, players=4, thread=THREAD + n) for n in range(6)]
    expected = sum([len(await service.store.outbox.pending(t)) for t in tables])
    wires = [Wire(), Wire()]
    drainers = [
        Announcer(wires[0], service_on(redis, clock)),  # type: ignore[arg-type]
        Announcer(wires[1], service_on(second_client, clock)),  # type: ignore[arg-type]
    ]
    rng = random.Random(7)

    async def later(work: Awaitable[None]) -> None:  # drainers waking at any moment of another's work
        await asyncio.sleep(rng.uniform(0, 0.1))
        await work

    work = [d.deliver(t) for t in tables for d in drainers * 3] + [d.deliver_due() for d in drainers]
    await asyncio.gather(*(later(w) for w in work))
    sent = Counter((where, text) for wire in wires for where, text in wire.sent)
    assert sent and max(sent.values()) == 1, [item for item, n in sent.items() if n > 1]
    assert sum(1 for where, _ in sent if isinstance(where, int)) == expected  # one thread post per change
    assert [await service.store.outbox.pending(t) for t in tables] == [[]] * len(tables)


async def test_a_drainer_that_dies_leaves_the_rest_to_the_next(redis: Redis, second_client: Redis) -> None:
    clock = Clock()
    service = service_on(redis, clock)
    table = await seated(service)
    dying = Outbox(redis, lease_ms=200)
    lease = await dying.claim(table)
    assert lease is not None
    news = await dying.head(lease)
    assert news is not None and news.public == ["bob joins the table."]
    news.done += ["refresh", "log:0"]  # it told the thread, then the process died
    assert await dying.record(lease, news)
    wire = Wire()
    next_one = Announcer(wire, service_on(second_client, clock), Outbox(second_client, lease_ms=200))  # type: ignore[arg-type]
    await next_one.deliver(table)
    assert wire.sent == [], "the lease still holds: nobody else tells this table yet"
    await asyncio.sleep(0.25)
    await next_one.deliver(table)
    assert told([t for _, t in wire.sent]) == ["cid joins the table.", "The game of High Card begins."]


async def test_news_the_index_lost_is_found_by_a_rescan(redis: Redis) -> None:
    clock = Clock()
    service = service_on(redis, clock)
    table = await seated(service)
    await redis.delete(keys.outbox_due(table))  # a crash between the save and its index entry
    wire = Wire()
    announcer = Announcer(wire, service)  # type: ignore[arg-type]
    await announcer.deliver_due()
    assert wire.sent == []
    assert await announcer.outbox.rescan() == 1
    await announcer.deliver_due()
    assert len(wire.sent) == 3 and await announcer.outbox.pending(table) == []


async def test_a_failing_step_is_retried_alone_and_given_up_at_last(
    redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    service = service_on(redis, clock)
    table = await seated(service, players=2)
    wire = Wire(failing={THREAD: 500})
    announcer = Announcer(wire, service)  # type: ignore[arg-type]
    await announcer.deliver(table)
    [news, *_] = await announcer.outbox.pending(table)
    assert news.attempts == {"log:0": 1}
    assert await announcer.outbox.due(clock()) == [], "not before the backoff"
    del wire.failing[THREAD]
    clock.now += 5
    await announcer.deliver_due()
    assert told([t for _, t in wire.sent]) == ["bob joins the table.", "The game of High Card begins."]
    # A step that never succeeds is given up after MAX_ATTEMPTS; the rest is still told.
    await service.act(table, 1, f"play:{service.view(await service.get(table), 1).hand[0]}")  # type: ignore[attr-defined]
    wire.failing[THREAD] = 500
    for _ in range(MAX_ATTEMPTS - 1):
        clock.now += 1000
        await announcer.deliver_due()
        assert len(await announcer.outbox.pending(table)) == 1, "kept until the last try"
    clock.now += 1000
    await announcer.deliver_due()
    assert await announcer.outbox.pending(table) == []
    assert f"gave up on log:0 after {MAX_ATTEMPTS} tries" in caplog.text


async def test_a_lasting_refusal_for_one_recipient_spares_the_others(redis: Redis) -> None:
    clock = Clock()
    service = service_on(redis, clock)
    table = await seated(service)
    wire = Wire(failing={("dm", 1): 404})
    announcer = Announcer(wire, service)  # type: ignore[arg-type]
    await announcer.deliver(table)
    record = await service.get(table)
    card = service.view(record, 1).hand[0]  # type: ignore[attr-defined]
    await service.act(table, 1, f"play:{card}")
    await service.act(table, 2, "pass")
    await service.act(table, 3, "cheer")  # whispers to ann (DM refused: 404); bob is pinged
    await announcer.deliver(table)
    assert await announcer.outbox.pending(table) == [], "a 404 is not retried"
    assert any("<@2>" in t and "your move" in t for _, t in wire.sent)


async def test_a_save_whose_reply_is_lost_is_recognised(store: TableStore) -> None:
    service = TableService(store, games={"high-card": HIGH_CARD}, clock=Clock())
    record = await service.create("high-card", Player(1, "ann"), channel_id=CHANNEL)
    inject(store.redis, "evalsha", after=True, when=on_script(store._save.sha))
    outcome = await service.join(record.id, Player(2, "bob"))  # applied; the reply was lost
    assert outcome.table.version == 1 and (await service.get(record.id)).version == 1
    assert [n.public for n in await store.outbox.pending(record.id)] == [["bob joins the table."]]
    saving = on_script(store._save.sha)
    inject(store.redis, "evalsha", error=RedisTimeoutError("Timeout reading"), when=saving)
    with pytest.raises(StorageUnavailable):  # refused before it ran: truly nothing changed
        await service.join(record.id, Player(3, "cid"))
    assert (await service.get(record.id)).version == 1
    inject(store.redis, "evalsha", after=True, when=on_script(store._save.sha))
    inject(store.redis, "evalsha", times=1000, when=on_script(store._void.sha))
    store.settle_within = 0.3
    with pytest.raises(OutcomeUnknown):  # applied, but Redis never answers whether it was
        await service.join(record.id, Player(3, "cid"))


async def test_a_save_retried_by_the_client_finds_itself(store: TableStore) -> None:
    service = TableService(store, games={"high-card": HIGH_CARD}, clock=Clock())
    record = await service.create("high-card", Player(1, "ann"), channel_id=CHANNEL)
    real = store.redis.evalsha

    async def sent_twice(*args: Any) -> Any:  # what a retrying client does when a reply is lost
        await real(*args)
        return await real(*args)

    store.redis.evalsha = sent_twice  # type: ignore[method-assign]
    outcome = await service.join(record.id, Player(2, "bob"))
    assert outcome.table.version == 1
    assert [s.name for s in (await service.get(record.id)).seats] == ["ann", "bob"], "applied once"


async def test_news_an_earlier_version_scheduled_in_its_single_key_is_told(redis: Redis) -> None:
    clock = Clock()
    service = service_on(redis, clock)
    table = await seated(service)
    await redis.delete(keys.outbox_due(table))
    await redis.zadd(keys.LEGACY_OUTBOX, {table: 0.0})  # where an earlier version scheduled it
    wire = Wire()
    announcer = Announcer(wire, service)  # type: ignore[arg-type]
    await announcer.deliver_due()
    assert len(wire.sent) == 3 and await announcer.outbox.pending(table) == []
    assert not await redis.exists(keys.LEGACY_OUTBOX) and await scheduled(redis) == 0


async def test_a_drainers_pass_takes_a_bounded_batch_from_every_bucket(redis: Redis) -> None:
    outbox = Outbox(redis)
    for n in range(keys.BUCKETS * PER_BUCKET * 3):
        await outbox.schedule(f"t{n}")
    due = await outbox.due(1.0, first=3)
    taken = Counter(keys.bucket(t) for t in due)
    assert set(taken) == set(range(keys.BUCKETS)) and max(taken.values()) == PER_BUCKET
    assert keys.bucket(due[0]) == 3 and keys.bucket(due[1]) == 4


async def test_news_of_an_unreadable_table_is_dropped_not_retried_forever(redis: Redis) -> None:
    clock = Clock()
    service = service_on(redis, clock)
    table = await seated(service)
    await redis.hset(keys.table(table), "meta", "{damaged")
    wire = Wire()
    announcer = Announcer(wire, service)  # type: ignore[arg-type]
    await announcer.deliver_due()
    assert wire.sent == [] and await announcer.outbox.pending(table) == []
    assert await scheduled(redis) == 0
