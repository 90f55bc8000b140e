"""Storage faults for tests, injected into a real Redis client (not a mock):
a command refused before it runs (a connection reset), or run and then its
reply lost (a reset or a timeout after the write was applied); and faults of
a real private server: a restart, a freeze, its clients' connections dropped."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from storage.server import RedisServer

Matcher = Callable[[tuple[Any, ...]], bool]


class Fault:
    def __init__(self, error: BaseException, times: int, after: bool, when: Matcher) -> None:
        self.error, self.times, self.after, self.when = error, times, after, when
        self.hits = 0

    def applies(self, args: tuple[Any, ...]) -> bool:
        if self.hits >= self.times or not self.when(args):
            return False
        self.hits += 1
        return True


def inject(
    client: Redis,
    command: str,
    *,
    after: bool = False,
    error: BaseException | None = None,
    times: int = 1,
    when: Matcher = lambda args: True,
) -> Fault:
    """Make ``client.<command>`` fail ``times`` times (where ``when(args)``):
    before it runs, or — ``after`` — once it has run, as a lost reply. A
    pipeline holding the command fails as a whole, as its one round trip would."""
    fault = Fault(error or RedisConnectionError("Connection reset by peer"), times, after, when)
    real = getattr(client, command)

    async def faulty(*args: Any, **kwargs: Any) -> Any:
        if not fault.applies(args):
            return await real(*args, **kwargs)
        if fault.after:
            await real(*args, **kwargs)
        raise fault.error

    setattr(client, command, faulty)
    _inject_in_pipelines(client, command, fault)
    return fault


Execute = Callable[[], Awaitable[Any]]
# Given a pipeline's queued arguments of the command, its real execute and its reset.
PipelineHook = Callable[[list[tuple[Any, ...]], Execute, Execute], Awaitable[Any]]


def _in_pipelines(client: Redis, command: str, hook: PipelineHook) -> None:
    """Run ``hook`` instead of the execute of every pipeline that holds ``command``."""
    real_pipeline = client.pipeline

    def pipeline(*args: Any, **kwargs: Any) -> Any:
        pipe = real_pipeline(*args, **kwargs)
        if not hasattr(pipe, "command_stack"):
            return pipe  # a cluster pipeline: it never carries scripts, the store sends them alone
        real_execute = pipe.execute

        async def execute(*a: Any, **k: Any) -> Any:
            queued = [tuple(c[1:]) for c, _ in pipe.command_stack if str(c[0]).lower() == command]
            if not queued:
                return await real_execute(*a, **k)
            return await hook(queued, lambda: real_execute(*a, **k), pipe.reset)

        pipe.execute = execute  # type: ignore[method-assign]
        return pipe

    client.pipeline = pipeline  # type: ignore[method-assign]


def _inject_in_pipelines(client: Redis, command: str, fault: Fault) -> None:
    async def hook(queued: list[tuple[Any, ...]], run: Execute, reset: Execute) -> Any:
        if not any(fault.applies(found) for found in queued):
            return await run()
        if fault.after:
            await run()
        else:
            await reset()
        raise fault.error

    _in_pipelines(client, command, hook)


def on_script(sha: str) -> Matcher:
    """``when`` for ``evalsha``: only the script with this sha (e.g. the table save)."""
    return lambda args: bool(args) and args[0] == sha


def slow(client: Redis, command: str, seconds: float, times: int = 1) -> None:
    """Make ``client.<command>`` answer ``seconds`` late, ``times`` times (a storage stall),
    alone or in a pipeline."""
    real = getattr(client, command)
    left = [times]

    async def late(*args: Any, **kwargs: Any) -> Any:
        if left[0] > 0:
            left[0] -= 1
            await asyncio.sleep(seconds)
        return await real(*args, **kwargs)

    setattr(client, command, late)

    async def hook(queued: list[tuple[Any, ...]], run: Execute, reset: Execute) -> Any:
        if left[0] > 0:
            left[0] -= 1
            await asyncio.sleep(seconds)
        return await run()

    _in_pipelines(client, command, hook)


def restart(server: RedisServer, down: float = 0.0) -> None:
    """Stop the server as an operator would (it flushes its append-only file)
    and, ``down`` seconds later, start it again on the same address: every
    connection to it drops, and new ones are refused meanwhile. Blocking."""
    server.stop()
    time.sleep(down)
    server.start()


@contextlib.contextmanager
def frozen(server: RedisServer) -> Iterator[None]:
    """The server stops answering (SIGSTOP) but keeps its connections: what is
    sent to it waits, and runs when it thaws (SIGCONT) unless given up on."""
    assert server.process is not None
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.process.pid, signal.SIGCONT)


async def drop_connections(admin: Redis, seconds: float = 0.0, every: float = 0.01) -> None:
    """The server closes every other client's connection, whatever it was
    doing — again and again, ``every`` so often, for ``seconds``."""
    until = time.monotonic() + seconds
    while True:
        await admin.client_kill_filter(_type="normal", skipme=True)
        if time.monotonic() >= until:
            return
        await asyncio.sleep(every)
