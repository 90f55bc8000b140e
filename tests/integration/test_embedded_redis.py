"""The embedded Redis and the Redis client: one owner per data folder, a server
that never outlives its owner, and connections that survive a Redis restart."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.connect import LOCK_NAME, DataDirLock, RedisUnavailable, connect, open_redis
from storage.server import RedisServer

pytestmark = pytest.mark.skipif(not RedisServer.installed(), reason="needs redis-server")

OWNER = """
import asyncio, sys
from pathlib import Path
from storage.connect import open_redis

async def main():
    async with open_redis(None, Path(sys.argv[1])) as redis:
        await redis.set("owner", "first")
        print("ready", flush=True)
        await asyncio.sleep(60)

asyncio.run(main())
"""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


@pytest.fixture
def owner(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another gametable process that has started the embedded Redis of ``tmp_path``."""
    process = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(tmp_path)], stdout=subprocess.PIPE, text=True, cwd=Path.cwd()
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    socket = Path(str(holder(tmp_path)["url"]).removeprefix("unix://"))
    yield process
    if process.poll() is None:
        process.kill()
    process.wait()
    shutil.rmtree(socket.parent, ignore_errors=True)  # a killed owner leaves its socket's folder


def holder(data_dir: Path) -> dict[str, object]:
    found: dict[str, object] = json.loads((data_dir / "redis" / LOCK_NAME).read_text())
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_the_embedded_server_dies_with_its_owner_even_by_sigkill(
    owner: subprocess.Popen[str], tmp_path: Path
) -> None:
    server = holder(tmp_path)["server_pid"]
    assert isinstance(server, int) and alive(server)
    os.kill(owner.pid, signal.SIGKILL)
    owner.wait()
    deadline = time.monotonic() + 5
    while alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(server)


async def test_a_second_process_on_the_same_data_folder_uses_the_running_server(
    owner: subprocess.Popen[str], tmp_path: Path
) -> None:
    async with open_redis(None, tmp_path) as redis:
        assert await redis.get("owner") == b"first"
        assert (await redis.info("server"))["process_id"] == holder(tmp_path)["server_pid"]
    assert owner.poll() is None and alive(int(holder(tmp_path)["server_pid"]))  # type: ignore[call-overload]


async def test_a_locked_data_folder_without_a_reachable_server_is_refused_in_a_sentence(
    tmp_path: Path,
) -> None:
    other = DataDirLock(tmp_path / "redis")
    assert other.acquire()
    other.publish("redis://127.0.0.1:1/0", 999999)
    try:
        with pytest.raises(RedisUnavailable) as refused:
            async with open_redis(None, tmp_path):
                pass
    finally:
        other.release()
    message = str(refused.value)
    assert message.startswith(f"The data folder {tmp_path / 'redis'} is in use by another gametable process")
    assert "\n" not in message


async def test_an_idle_pooled_connection_survives_a_redis_restart(tmp_path: Path) -> None:
    first = RedisServer(tmp_path, tcp=True)
    url = first.start()
    client = connect(url)
    try:
        await client.set("kept", "yes")  # appendonly: the restarted server has it again
        first.stop()
        again = RedisServer(tmp_path, tcp=True)
        again.port = first.port
        again.start()
        try:
            assert await client.get("kept") == b"yes"
        finally:
            again.stop()
    finally:
        await client.aclose()


@pytest.mark.parametrize(
    ("url", "sentence"),
    [
        ("redis://:secret@127.0.0.1:1/0", "Cannot reach Redis at 127.0.0.1:1: connection refused. Is it"),
        ("http://127.0.0.1/0", "The Redis URL is not one: Redis URL must specify one of the following"),
    ],
)
async def test_no_redis_reachable_is_one_sentence(tmp_path: Path, url: str, sentence: str) -> None:
    with pytest.raises(RedisUnavailable) as refused:
        async with open_redis(url, tmp_path):
            pass
    assert str(refused.value).startswith(sentence) and "secret" not in str(refused.value)


async def test_a_redis_that_refuses_the_bot_is_one_sentence(redis_url: str, tmp_path: Path) -> None:
    scheme, _, rest = redis_url.partition("://")
    address = rest.split("/")[0]
    with pytest.raises(RedisUnavailable) as refused:
        async with open_redis(f"{scheme}://nobody:wrong@{address}/0", tmp_path):
            pass
    assert str(refused.value).startswith(f"Redis at {address} refused this bot: ")
