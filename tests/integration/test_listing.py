"""Table lists read a page at a time, on a real Redis (and a cluster with
GAMETABLE_TEST_CLUSTER=1): order, paging, out-of-order writes, and the sets
that earlier versions kept."""

from __future__ import annotations

import time

from storage import keys, listing
from storage.listing import list_keys
from storage.records import Clocks, SeatRecord, TableRecord, TableStatus
from storage.store import TableStore

ANN, BOB = 1, 2


def make(table_id: str, updated_at: float = 1.0, **extra: object) -> TableRecord:
    fields: dict[str, object] = dict(
        id=table_id,
        game="high-card",
        host_id=ANN,
        status=TableStatus.PLAYING,
        seats=[SeatRecord(user_id=ANN, name="Ann"), SeatRecord(user_id=BOB, name="Bob")],
        channel_id=100,
        guild_id=10,
        created_at=1.0,
        updated_at=updated_at,
        seed=7,
        turn_timeout=60.0,
    )
    fields.update(extra)
    return TableRecord.model_validate(fields)


async def ids(store: TableStore, scope: str, start: int = 0, size: int = 50) -> list[str]:
    return [entry.id for entry in (await store.page(scope, start, size)).entries]


async def test_a_users_list_puts_their_moves_first_by_time_left(store: TableStore) -> None:
    # Ann's move at "late" (due 900) and "soon" (due 300); Bob's at "theirs" (table deadline 100);
    # "lobby" has no deadline at all.
    await store.create(make("late", clocks=Clocks(due={0: 900.0}), deadline=900.0))
    await store.create(make("theirs", clocks=Clocks(due={1: 100.0}), deadline=100.0))
    await store.create(make("soon", clocks=Clocks(due={0: 300.0}), deadline=300.0, headline="Round 2"))
    await store.create(make("lobby", status=TableStatus.LOBBY))
    assert await ids(store, f"user:{ANN}") == ["soon", "late", "theirs", "lobby"]
    assert await ids(store, f"user:{BOB}") == ["theirs", "soon", "late", "lobby"]
    page = await store.page(f"user:{ANN}", 0, 1)
    assert page.total == 4 and page.your_moves == 2
    first = page.entries[0]
    assert (first.your_move, first.due, first.headline, first.seats) == (True, 300.0, "Round 2", 2)
    [theirs] = (await store.page(f"user:{ANN}", 2, 1)).entries
    assert not theirs.your_move and theirs.due == 100.0


async def test_a_channels_list_shows_the_latest_activity_first_a_page_at_a_time(store: TableStore) -> None:
    for n in range(7):
        await store.create(make(f"t{n}", updated_at=float(n)))
    first = await store.page("channel:100", 0, 3)
    assert [e.id for e in first.entries] == ["t6", "t5", "t4"] and first.total == 7 and first.more
    last = await store.page("channel:100", 6, 3)
    assert [e.id for e in last.entries] == ["t0"] and not last.more
    assert (await store.page("channel:100", 9, 3)).entries == []
    moved = await store.get("t0")
    assert moved is not None
    await store.save(moved.model_copy(update={"updated_at": 50.0}))
    assert await ids(store, "channel:100", 0, 2) == ["t0", "t6"]
    assert await ids(store, "guild:10", 0, 2) == ["t0", "t6"]


async def test_a_finished_or_left_table_leaves_the_lists(store: TableStore) -> None:
    a = await store.create(make("a"))
    await store.create(make("b"))
    await store.save(a.model_copy(update={"status": TableStatus.FINISHED}))
    assert await ids(store, "channel:100") == ["b"]
    assert await ids(store, f"user:{BOB}") == ["b"]
    b = await store.get("b")
    assert b is not None
    await store.save(b.model_copy(update={"seats": b.seats[:1]}))
    await store.forget_user("b", BOB)
    assert await ids(store, f"user:{BOB}") == []
    assert await ids(store, f"user:{ANN}") == ["b"]


async def test_a_late_write_of_an_older_version_changes_no_list(store: TableStore) -> None:
    """Saves of one table may land out of order (their list writes travel beside
    the save, in other slots): the newest version's entry stays."""
    first = await store.create(make("a", headline="old"))
    newer = await store.save(first.model_copy(update={"headline": "new"}))
    over = await store.save(newer.model_copy(update={"status": TableStatus.ABANDONED}))
    assert await ids(store, "channel:100") == []
    now = time.time()
    late = [listing.enter("channel:100", "a", v, listing.entry_of(first, "channel:100"), now) for v in (0, 1)]
    await listing.write(store.redis, store._enter, late)
    assert await ids(store, "channel:100") == [], "the removal at a later version holds"
    back = over.model_copy(update={"status": TableStatus.PLAYING, "version": over.version + 1})
    again = listing.enter("channel:100", "a", back.version, listing.entry_of(back, "channel:100"), now)
    await listing.write(store.redis, store._enter, [again])
    assert await ids(store, "channel:100") == ["a"], "a newer version is listed again"


async def test_old_removal_marks_are_forgotten_a_few_at_a_time(store: TableStore) -> None:
    _, lines, marks = list_keys("channel:100")
    long_ago = time.time() - listing.MARK_SECONDS - 10
    for n in range(20):
        removed = listing.enter("channel:100", f"x{n}", 1, None, long_ago)
        await listing.write(store.redis, store._enter, [removed])
    assert await store.redis.hlen(lines) == 20 and await store.redis.zcard(marks) == 20
    await store.create(make("a"))
    assert await store.redis.zcard(marks) == 4  # 16 forgotten by the next write
    assert await store.redis.hlen(lines) == 5


async def test_an_earlier_versions_sets_become_lists_on_first_read(store: TableStore) -> None:
    for n in range(3):
        await store.create(make(f"t{n}", updated_at=float(n)))
    gone = await store.create(make("gone"))
    await store.save(gone.model_copy(update={"status": TableStatus.FINISHED}))
    # What an earlier version left: sets of ids (a stale one among them), and no lists.
    for scope in ("channel:100", "guild:10", f"user:{ANN}", f"user:{BOB}"):
        await store.redis.delete(*list_keys(scope))
    await store.redis.sadd(keys.channel(100), "t0", "t1", "t2", "gone")
    await store.redis.sadd(keys.user(BOB), "t0", "t1", "t2")
    await store.redis.sadd(keys.guild(10), "t1")

    assert await ids(store, "channel:100") == ["t2", "t1", "t0"]
    assert not await store.redis.exists(keys.channel(100)), "the old set is gone once turned into the list"
    assert [t.id for t in await store.of_user(BOB)] == ["t0", "t1", "t2"]
    assert not await store.redis.exists(keys.user(BOB))
    assert await store.rebuild_indexes() == 4
    assert not await store.redis.exists(keys.guild(10))
    assert await ids(store, "guild:10") == ["t2", "t1", "t0"]
    assert await ids(store, f"user:{ANN}") == ["t0", "t1", "t2"]


async def test_a_line_that_cannot_be_read_is_written_again_from_its_table(store: TableStore) -> None:
    await store.create(make("a", headline="Round 1"))
    await store.create(make("b", headline="Round 2"))
    await store.redis.hset(list_keys("channel:100")[1], "a", "0|{not json")
    await store.redis.hdel(list_keys("channel:100")[1], "b")
    entries = (await store.page("channel:100", 0, 5)).entries
    assert sorted(e.headline for e in entries) == ["Round 1", "Round 2"]


async def test_a_host_who_left_their_table_no_longer_lists_it(store: TableStore) -> None:
    await store.create(make("a", seats=[SeatRecord(user_id=BOB, name="Bob")]))
    assert await ids(store, f"user:{ANN}") == []
    assert [t.id for t in await store.of_user(ANN)] == []
    assert await ids(store, f"user:{BOB}") == ["a"]
