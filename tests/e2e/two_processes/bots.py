"""The test's side of the two-process test: bot processes (``worker.py``) started with
``sys.executable``, each with its own ``SHARD_IDS``, driven one step at a time, and killed whatever
happens to the test."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[3]
STEP_SECONDS = 30.0  # a step that takes this long is stuck: the test fails with the process's stderr
REPLY_LIMIT = 1 << 26


class BotProcess:
    def __init__(self, name: str, process: asyncio.subprocess.Process, stderr: Path) -> None:
        self.name, self.process, self.stderr = name, process, stderr

    @classmethod
    async def spawn(cls, shard: int, count: int, redis_url: str, folder: Path, **env: str) -> BotProcess:
        stderr = folder / f"shard-{shard}.log"
        environ = {
            **os.environ,
            "REDIS_URL": redis_url,
            "SHARD_COUNT": str(count),
            "SHARD_IDS": json.dumps([shard]),
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        with stderr.open("wb") as sink:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.e2e.two_processes.worker",
                cwd=ROOT,
                env=environ,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=sink,
                limit=REPLY_LIMIT,
            )
        return cls(f"shard {shard}", process, stderr)

    async def call(self, op: str, **args: Any) -> dict[str, Any]:
        """One step; its reply, or an AssertionError saying what went wrong in the process."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((json.dumps({"op": op, **args}) + "\n").encode())
        await self.process.stdin.drain()
        try:
            line = await asyncio.wait_for(self.process.stdout.readline(), STEP_SECONDS)
        except TimeoutError:
            raise AssertionError(
                f"{self.name}: no answer to {op!r} in {STEP_SECONDS}s\n{self.log()}"
            ) from None
        if not line:
            raise AssertionError(f"{self.name} ended during {op!r}\n{self.log()}")
        reply: dict[str, Any] = json.loads(line)
        if not reply.pop("ok"):
            raise AssertionError(f"{self.name}, step {op!r}:\n{reply['error']}")
        return reply

    def log(self) -> str:
        return self.stderr.read_text(errors="replace")[-4000:]

    async def close(self) -> None:
        """Stop the bot and its harness, which checks what was left (Discord's refusals, errors)."""
        await self.call("close")
        await asyncio.wait_for(self.process.wait(), STEP_SECONDS)

    async def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # it ended on its own meanwhile
                self.process.kill()
            await self.process.wait()


@asynccontextmanager
async def bot_processes(
    count: int, redis_url: str, folder: Path, **env: str
) -> AsyncIterator[list[BotProcess]]:
    """``count`` processes, one shard each, on one Redis; all stopped (killed if need be) on the way out."""
    started: list[BotProcess] = []
    try:
        for shard in range(count):
            started.append(await BotProcess.spawn(shard, count, redis_url, folder, **env))
        yield started
        for bot in started:
            await bot.close()
    finally:
        for bot in started:
            await bot.kill()
