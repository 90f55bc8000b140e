"""Where tables live: the configured Redis, or an embedded default.

With ``REDIS_URL`` set, connect to it. Without it, start a private
``redis-server`` (append-only persistence, unix socket, under the data
directory) when one is installed; otherwise fall back to an in-process store
(fakeredis) — with a loud warning, because its tables die with the process.

One process owns a data directory's embedded server: it holds an exclusive
lock on ``<DATA_DIR>/redis/gametable.lock`` and writes the server's address
there, so a second process on the same directory uses that server (two servers
on one set of append-only files would overwrite each other's tables). The
server never outlives its owner: it is stopped on exit, and on Linux the kernel
stops it when the owner dies, even by SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any, cast
from urllib.parse import urlsplit

import hiredis
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import AuthenticationError, DataError, RedisClusterException, RedisError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from storage.server import RedisServer

log = logging.getLogger(__name__)

LOCK_NAME = "gametable.lock"


class RedisUnavailable(Exception):
    """Redis cannot be used; the message is one sentence for the person starting the bot."""


CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


def connect(url: str, *, timeout: float = 5.0, retries: int = 4) -> Redis:
    """A client with explicit timeouts that checks idle pooled connections and
    retries a command with backoff when the connection drops (a Redis restart,
    a failover), so callers see an error only when Redis stays away.

    A ``redis+cluster://host:port`` (or ``rediss+cluster://``) URL names any
    node of a Redis Cluster: the client discovers the others and sends each
    command to the node that owns its key's slot. ``timeout``: how long one
    command waits for its reply, ``retries``: how often it is sent again (the
    tests shrink both, so that a short outage outlasts the client's retrying)."""
    scheme, _, rest = url.partition("://")
    if scheme in CLUSTER_SCHEMES:
        cluster = RedisCluster.from_url(
            f"{CLUSTER_SCHEMES[scheme]}://{rest}",
            socket_timeout=timeout,
            socket_connect_timeout=min(timeout, 3.0),
            retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=retries),
            # Per node; the client refuses rather than waits beyond it, and a
            # save uses two at once (its script and its index pipeline).
            max_connections=1000,
        )
        # The store uses only commands whose keys sit in one slot (a table's keys
        # share a hash tag) or single-key commands, which a cluster client routes.
        pack_with_hiredis(cast(Redis, cluster))
        return cast(Redis, cluster)
    client = Redis.from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=min(timeout, 3.0),
        health_check_interval=15,
        retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=retries),
        retry_on_error=[RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError],
    )
    pack_with_hiredis(client)
    return client


class _HiredisPacking:
    """Commands packed by hiredis in C. redis-py's asyncio connections pack in
    Python (its blocking ones use hiredis): a save's large arguments cost four
    times as long that way. The bytes sent are the same."""

    def pack_command(self, *args: Any) -> list[bytes]:
        if isinstance(args[0], str):
            args = tuple(args[0].encode().split()) + args[1:]
        elif b" " in args[0]:
            args = tuple(args[0].split()) + args[1:]
        try:
            return [hiredis.pack_command(args)]
        except TypeError as error:
            raise DataError(str(error)) from None


_PACKING: dict[type[Any], type[Any]] = {}


def _packing_with_hiredis(base: type[Any]) -> type[Any]:
    if issubclass(base, _HiredisPacking):
        return base
    if base not in _PACKING:
        _PACKING[base] = type(base.__name__, (_HiredisPacking, base), {})
    return _PACKING[base]


def pack_with_hiredis(client: Redis) -> None:
    """Make ``client``'s connections pack commands with hiredis, when it can.

    A cluster client has no pool: each node makes its own connections, of the
    class in the keyword arguments the client makes every node from (the ones
    :meth:`RedisCluster.get_connection_kwargs` returns, which its node manager
    shares for the nodes it discovers later). Before its first command only its
    startup nodes exist, so they and those arguments are all there is to change."""
    if not hasattr(hiredis, "pack_command"):
        return
    if isinstance(client, RedisCluster):
        made_from = client.get_connection_kwargs()
        made_from["connection_class"] = _packing_with_hiredis(made_from.get("connection_class") or Connection)
        for node in client.nodes_manager.startup_nodes.values():
            node.connection_class = _packing_with_hiredis(node.connection_class)
        return
    pool = client.connection_pool
    pool.connection_class = _packing_with_hiredis(pool.connection_class)


def _where(url: str) -> str:
    """The address in a Redis URL, without a password."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return parts.path
    return f"{parts.hostname or 'localhost'}:{parts.port or 6379}"


def _why(error: BaseException) -> str:
    cause = error.__cause__ or error.__context__
    if isinstance(error, ConnectionRefusedError) or isinstance(cause, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, (RedisTimeoutError, TimeoutError)) or isinstance(cause, TimeoutError):
        return "no answer in time"
    if isinstance(cause, FileNotFoundError):
        return "no such socket"
    return str(error).strip().rstrip(".")[:120] or type(error).__name__


async def reach(url: str) -> Redis:
    """A connected client (see :func:`connect`), or :class:`RedisUnavailable` in one sentence."""
    try:
        client = connect(url)
    except ValueError as error:
        raise RedisUnavailable(f"The Redis URL is not one: {str(error).rstrip('.')}.") from None
    try:
        await client.ping()
    except (RedisError, RedisClusterException, OSError) as error:
        await client.aclose()
        where, reason = _where(url), _why(error)
        if isinstance(error, RedisClusterException):  # the cluster client's wrapper of the first node's error
            refused = isinstance(error.__cause__ or error.__context__, AuthenticationError)
            reason = str(error).rpartition(": ")[2].strip().rstrip(".") or reason
            if not refused:
                raise RedisUnavailable(f"Cannot reach Redis at {where}: {reason}. Is it running?") from None
        if isinstance(error, (AuthenticationError, RedisClusterException)) or not isinstance(
            error, (RedisConnectionError, RedisTimeoutError, OSError)
        ):  # it answered, but refuses us (a password, a protocol)
            raise RedisUnavailable(f"Redis at {where} refused this bot: {reason}.") from None
        raise RedisUnavailable(f"Cannot reach Redis at {where}: {reason}. Is it running?") from None
    return client


class DataDirLock:
    """The exclusive hold of one process on a data directory's embedded Redis;
    the lock file also tells other processes where that server listens. The
    kernel drops the lock when its holder dies, however it dies."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        self._file = handle
        return True

    def publish(self, url: str, server_pid: int) -> None:
        assert self._file is not None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(json.dumps({"pid": os.getpid(), "server_pid": server_pid, "url": url}))
        self._file.flush()

    def holder(self) -> dict[str, Any]:
        """What the holding process published (empty while it is still starting)."""
        with contextlib.suppress(OSError, ValueError):
            found = json.loads(self.path.read_text(encoding="utf-8") or "{}")
            if isinstance(found, dict):
                return found
        return {}

    def release(self) -> None:
        if self._file is not None:
            self._file.seek(0)
            self._file.truncate()
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None


async def _holders_server(lock: DataDirLock) -> Redis:
    """The embedded server of the process that holds ``lock``, or one sentence why not."""
    holder: dict[str, Any] = {}
    for _ in range(50):  # the holder may be starting its server right now
        holder = lock.holder()
        if holder.get("url"):
            break
        await asyncio.sleep(0.1)
    pid = holder.get("pid", "unknown")
    refusal = (
        f"The data folder {lock.path.parent} is in use by another gametable process (pid {pid}) "
        "whose Redis cannot be reached; stop that process, or give this one its own DATA_DIR or a REDIS_URL."
    )
    if not isinstance(holder.get("url"), str):
        raise RedisUnavailable(refusal)
    try:
        client = await reach(holder["url"])
    except RedisUnavailable:
        raise RedisUnavailable(refusal) from None
    log.warning("DATA_DIR is in use by gametable process %s: sharing its redis-server", pid)
    return client


@contextlib.asynccontextmanager
async def _embedded(data_dir: Path) -> AsyncIterator[Redis]:
    lock = DataDirLock(data_dir / "redis")
    try:
        acquired = lock.acquire()
    except OSError as error:
        raise RedisUnavailable(_unusable(data_dir, error)) from None
    if not acquired:
        client = await _holders_server(lock)
        try:
            yield client
        finally:
            await client.aclose()
        return
    try:
        embedded = _server(data_dir)
        try:
            _launch(embedded)
            url = await _started(embedded)
            assert embedded.process is not None
            lock.publish(url, embedded.process.pid)
            client = await reach(url)
            log.info("using an embedded redis-server with append-only persistence in %s", embedded.data_dir)
            try:
                yield client
            finally:
                await client.aclose()
        finally:
            embedded.stop()
    finally:
        lock.release()


def _server(data_dir: Path) -> RedisServer:
    try:
        return RedisServer(data_dir / "redis")
    except OSError as error:  # no room for its socket's folder
        raise RedisUnavailable(f"The embedded redis-server could not be started: {_why(error)}.") from None


def _launch(embedded: RedisServer) -> None:
    try:
        embedded.launch()  # from this thread, which lives as long as the bot (see launch)
    except OSError as error:  # its folder cannot be made, or the program cannot be run
        if isinstance(error, PermissionError) and error.filename is not None:
            raise RedisUnavailable(_unusable(embedded.data_dir, error)) from None
        raise RedisUnavailable(f"The embedded redis-server could not be started: {_why(error)}.") from None


def _unusable(data_dir: Path, error: OSError) -> str:
    reason = (error.strerror or str(error)).rstrip(".").lower()
    return (
        f"The data folder {data_dir} cannot be used ({reason}); "
        "give gametable a writable DATA_DIR, or a REDIS_URL."
    )


async def _started(embedded: RedisServer) -> str:
    """The embedded server's URL once it accepts connections, or one sentence why it never did."""
    try:
        return await asyncio.to_thread(embedded.wait)
    except RuntimeError as error:
        said = embedded.last_words().rstrip(".")[:200]
        why = f": {said}" if said else ""
        log_file = embedded.data_dir / "redis.log"
        if "did not start" in str(error):
            raise RedisUnavailable(
                f"The embedded redis-server did not start within 5 seconds{why} (its log: {log_file})."
            ) from None
        raise RedisUnavailable(
            f"The embedded redis-server stopped at start-up{why} (its log: {log_file})."
        ) from None


@contextlib.asynccontextmanager
async def open_redis(url: str | None, data_dir: Path) -> AsyncIterator[Redis]:
    """Yield a connected client for the rest of the bot's life, then close it."""
    if url:
        client = await reach(url)
        try:
            yield client
        finally:
            await client.aclose()
        return
    if shutil.which("redis-server"):
        async with _embedded(data_dir) as client:
            yield client
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
