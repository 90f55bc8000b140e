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
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

from redis.asyncio import Redis

log = logging.getLogger(__name__)


class RedisServer:
    """A private ``redis-server`` child process: on a unix socket under a short
    temporary folder (the embedded default), or on a free loopback TCP port
    (the tests and the benchmark, which want TCP like production)."""

    def __init__(
        self, data_dir: Path, *, executable: str | None = None, tcp: bool = False, appendonly: bool = True
    ) -> None:
        found = executable or shutil.which("redis-server")
        if found is None:
            raise RuntimeError("no redis-server is installed")
        self.executable = found
        # Absolute: redis-server changes into --dir before it opens its log file.
        self.data_dir = data_dir.resolve()
        self.appendonly = appendonly
        self.port = _free_port() if tcp else 0
        # A unix socket path is limited to ~107 bytes, so it lives in a short private
        # temporary folder rather than under a possibly deep data directory.
        self.socket = None if tcp else Path(tempfile.mkdtemp(prefix="gametable-")) / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}" if self.socket else f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> str:
        """Start the server and wait (at most 5 s) until it accepts connections; returns its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        listen = (
            ["--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700"]
            if self.socket
            else ["--port", str(self.port), "--bind", "127.0.0.1"]
        )
        self.process = subprocess.Popen(
            [
                self.executable,
                *listen,
                "--dir",
                str(self.data_dir),
                "--save",
                "",
                "--appendonly",
                "yes" if self.appendonly else "no",
                "--daemonize",
                "no",
                "--logfile",
                str(self.data_dir / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(250):
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited; see {self.data_dir / 'redis.log'}")
            if self._accepting():
                return self.url
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start within 5 seconds")

    def _accepting(self) -> bool:
        family = socket.AF_UNIX if self.socket else socket.AF_INET
        address = str(self.socket) if self.socket else ("127.0.0.1", self.port)
        with socket.socket(family) as probe:
            return probe.connect_ex(address) == 0

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        if self.socket is not None:
            shutil.rmtree(self.socket.parent, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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
    if shutil.which("redis-server"):
        embedded = RedisServer(data_dir / "redis")
        client = Redis.from_url(await asyncio.to_thread(embedded.start))
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
