"""Shared fixtures. Integration and e2e tests use a real Redis server: a private
``redis-server`` started for the session on a free port when one is installed
(so no test touches anyone's data), else ``GAMETABLE_TEST_REDIS_URL``, else the
local default port (``.ci/run`` makes sure one is listening)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis

from storage.store import TableStore


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    configured = os.environ.get("GAMETABLE_TEST_REDIS_URL")
    executable = shutil.which("redis-server")
    if configured or not executable:
        yield configured or "redis://127.0.0.1:6379/9"
        return
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                executable,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                folder,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(200):
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.02)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait(timeout=10)


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
async def store(redis: Redis) -> TableStore:
    return TableStore(redis)
