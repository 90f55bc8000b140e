"""A real Redis Cluster: three masters on loopback, reached by a
``redis+cluster://`` URL; a table's keys share one slot, its indexes do not
need to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hiredis
import pytest
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from storage import keys
from storage.cluster import LocalCluster
from storage.connect import _HiredisPacking, reach
from storage.outbox import lease_key, outbox_key
from storage.records import SeatRecord, TableRecord, TableStatus
from storage.store import TableStore

pytestmark = pytest.mark.skipif(not LocalCluster.installed(), reason="needs redis-server and redis-cli")


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    cluster = LocalCluster(Path(tmp_path_factory.mktemp("cluster")))
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def test_a_tables_own_keys_share_one_slot() -> None:
    names = [keys.table("x7"), keys.log("x7"), keys.quarantine("x7"), outbox_key("x7"), lease_key("x7")]
    assert len({key_slot(name.encode()) for name in names}) == 1


async def test_redis_url_names_a_cluster_and_the_store_works_across_its_masters(cluster_url: str) -> None:
    client = await reach(cluster_url)
    try:
        assert isinstance(client, RedisCluster) and len(client.get_primaries()) == 3
        store = TableStore(client)
        ids = [f"t{n}" for n in range(12)]  # enough tables to land on every master
        for table_id in ids:
            await store.create(
                TableRecord(
                    id=table_id,
                    game="high-card",
                    host_id=1,
                    seats=[SeatRecord(user_id=1, name="Ann")],
                    channel_id=100,
                    guild_id=10,
                    created_at=1.0,
                    updated_at=1.0,
                    seed=7,
                    turn_timeout=60.0,
                    deadline=50.0,
                )
            )
        owners = {client.get_node_from_key(keys.table(t)).name for t in ids}
        assert len(owners) == 3
        # The deadline and outbox buckets are shared among the masters, and so are the tables' entries.
        for buckets in (keys.DEADLINE_BUCKETS, keys.OUTBOX_BUCKETS):
            assert len({client.get_node_from_key(name).name for name in buckets}) == 3
        assert len({client.get_node_from_key(keys.deadlines(t)).name for t in ids}) > 1
        first = await store.get("t0")
        assert first is not None
        await store.save(first.model_copy(update={"status": TableStatus.FINISHED}))
        assert sorted(t.id for t in await store.in_channel(100)) == sorted(ids[1:])
        assert sorted(await store.due(100.0)) == sorted(ids[1:])
        assert await store.rebuild_indexes() == len(ids)
        assert sorted(t.id for t in await store.in_guild(10)) == sorted(ids[1:])
    finally:
        await client.aclose()


async def test_a_cluster_clients_connections_pack_commands_with_hiredis(
    cluster_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    packed: list[tuple[Any, ...]] = []
    real = hiredis.pack_command

    def counted(args: tuple[Any, ...]) -> bytes:
        packed.append(args)
        return real(args)

    monkeypatch.setattr(hiredis, "pack_command", counted)
    client = await reach(cluster_url)
    try:
        assert isinstance(client, RedisCluster)
        big = bytes(range(256)) * 4096  # a megabyte, every byte value
        names = [f"gt:test:{{k{n}}}" for n in range(12)]  # on every master
        for number, name in enumerate(names):
            await client.set(name, big if number == 0 else f"é{number} ✓")
        await client.hset("gt:test:{h}", mapping={"int": 7, "float": 1.5, "text": "tête"})
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.get(name)
        values = await pipe.execute()
        script = client.register_script("return redis.call('HGET', KEYS[1], ARGV[1])")
        assert values[0] == big and [v.decode() for v in values[1:]] == [f"é{n} ✓" for n in range(1, 12)]
        stored = {b"int": b"7", b"float": b"1.5", b"text": "tête".encode()}
        assert await client.hgetall("gt:test:{h}") == stored
        assert await script(keys=["gt:test:{h}"], args=["text"]) == "tête".encode()
        nodes = client.get_primaries()
        assert len(nodes) == 3 and all(issubclass(node.connection_class, _HiredisPacking) for node in nodes)
        assert any(args[0] == b"SET" and args[2] == big for args in packed), "hiredis packed the commands"
        await client.delete(*names, "gt:test:{h}")
    finally:
        await client.aclose()
