"""Where tables live: the configured Redis, or an embedded default.

With ``REDIS_URL`` set, connect to it. Without it, start a private
``redis-server`` (append-only persistence, unix socket, under the data
directory) when one is installed; otherwise fall back to an in-process store
(fakeredis) — with a loud warning, because its tables die with the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

from redis.asyncio import Redis

log = logging.getLogger(__name__)


class EmbeddedRedis:
    """A private redis-server process owned by this bot process."""

    def __init__(self, data_dir: Path, executable: str) -> None:
        # Absolute: redis-server changes into --dir before it opens its log file.
        self.data_dir = data_dir.resolve()
        # A unix socket path is limited to ~107 bytes, so it lives in a short private
        # temporary folder rather than under a possibly deep data directory.
        self.socket = Path(tempfile.mkdtemp(prefix="gametable-")) / "redis.sock"
        self.executable = executable
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> Redis:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # Popen returns at once; a plain process (not an asyncio one) can be
        # stopped from synchronous shutdown code as well.
        self.process = subprocess.Popen(  # noqa: ASYNC220
            [
                self.executable,
                "--port",
                "0",
                "--unixsocket",
                str(self.socket),
                "--unixsocketperm",
                "700",
                "--dir",
                str(self.data_dir),
                "--appendonly",
                "yes",
                "--save",
                "",
                "--daemonize",
                "no",
                "--logfile",
                str(self.data_dir / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = Redis(unix_socket_path=str(self.socket))
        for _ in range(200):
            if self.process.poll() is not None:
                raise RuntimeError(f"embedded redis-server exited; see {self.data_dir / 'redis.log'}")
            with contextlib.suppress(OSError, ConnectionError):
                if self.socket.exists() and await client.ping():
                    return client
            await asyncio.sleep(0.025)
        raise RuntimeError("embedded redis-server did not start within 5 seconds")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        shutil.rmtree(self.socket.parent, ignore_errors=True)


@contextlib.asynccontextmanager
async def open_redis(url: str | None, data_dir: Path) -> AsyncIterator[Redis]:
    """Yield a connected client for the rest of the bot's life, then close it."""
    if url:
        client = Redis.from_url(url)
        await client.ping()
        try:
            yield client
        finally:
            await client.aclose()
        return
    executable = shutil.which("redis-server")
    if executable:
        embedded = EmbeddedRedis(data_dir / "redis", executable)
        client = await embedded.start()
        log.info("using an embedded redis-server with append-only persistence in %s", embedded.data_dir)
        try:
            yield client
        finally:
            await client.aclose()
            embedded.stop()
        return
    from fakeredis import FakeAsyncRedis

    log.warning(
        "NO REDIS: REDIS_URL is unset and no redis-server is installed. Tables are kept in this "
        "process's memory only and WILL BE LOST when it stops. Set REDIS_URL for real play."
    )
    fake = FakeAsyncRedis()
    try:
        yield fake
    finally:
        await fake.aclose()
