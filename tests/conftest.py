"""Shared fixtures. Integration and e2e tests use a real Redis server: a private
``redis-server`` started for the session on a free port when one is installed
(so no test touches anyone's data), else ``GAMETABLE_TEST_REDIS_URL``, else the
local default port (``.ci/run`` makes sure one is listening).

With ``GAMETABLE_TEST_CLUSTER=1`` they run on a local 3-master Redis Cluster
instead (``.ci/run`` runs the storage and runtime tests that way too)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.connection import Connection

from storage.cluster import LocalCluster
from storage.connect import connect
from storage.server import RedisServer
from storage.store import TableStore


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    configured = os.environ.get("GAMETABLE_TEST_REDIS_URL")
    if os.environ.get("GAMETABLE_TEST_CLUSTER") == "1":
        with tempfile.TemporaryDirectory() as folder:
            cluster = LocalCluster(Path(folder))
            try:
                yield cluster.start()
            finally:
                cluster.stop()
        return
    if configured or not shutil.which("redis-server"):
        yield configured or "redis://127.0.0.1:6379/9"
        return
    with tempfile.TemporaryDirectory() as folder:
        server = RedisServer(Path(folder), tcp=True, appendonly=False)
        try:
            yield server.start()
        finally:
            server.stop()


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = connect(redis_url)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
async def store(redis: Redis) -> TableStore:
    return TableStore(redis)


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts what the clients send: a pipeline goes out in one write, one command in one."""
    sent = [0]
    real = Connection.send_packed_command

    async def counted(self: Connection, command: Any, check_health: bool = True) -> None:
        sent[0] += 1
        await real(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counted)
    yield sent
