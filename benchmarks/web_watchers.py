"""The watchers of :mod:`benchmarks.bench_web`'s live fan-out: many Server-Sent
Events readers of one address, in a process of their own so the serving
process's CPU and memory are its own.

The process opens its streams, says ``("ready", opened)``, then each time every
watcher has received its k-th ``update`` event it says ``("done", k, last,
first)`` (when the last and the first of them got it, on the machine's
monotonic clock, which every process shares on Linux). It stops when told ``"stop"`` and says
``("stopped", most, cpu_seconds, peak_rss_mib)`` (``most``: the most updates
one watcher got, to show none got a change twice)."""

from __future__ import annotations

import asyncio
import resource
import time
from multiprocessing.connection import Connection

import aiohttp

# Streams opened at once: the listening socket's backlog need not hold them all.
OPENING = 64


def raise_open_files(wanted: int) -> int:
    """Raise this process's soft limit of open files towards ``wanted`` (up to the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Watchers:
    def __init__(self, url: str, count: int, out: Connection) -> None:
        self.url, self.count, self.out = url, count, out
        self.opened = 0
        self.all_open = asyncio.Event()
        # reached[k]: how many watchers have had k updates; last[k]: when the latest of them got it.
        self.reached: list[int] = [0]
        self.last: list[float] = [0.0]
        self.first: list[float] = [0.0]
        self.most = 0

    def arrived(self, number: int) -> None:
        now = time.monotonic()
        if number == len(self.reached):
            self.reached.append(0)
            self.last.append(0.0)
            self.first.append(now)
        self.reached[number] += 1
        self.last[number] = max(self.last[number], now)
        self.most = max(self.most, number)
        if self.reached[number] == self.count:
            self.out.send(("done", number, self.last[number], self.first[number]))

    async def one(self, session: aiohttp.ClientSession, gate: asyncio.Semaphore) -> None:
        async with gate:
            response = await session.get(self.url)
            if response.status != 200:
                raise RuntimeError(f"{self.url} answered {response.status}")
            await response.content.readline()  # the stream's opening (retry: …) is written at once
        self.opened += 1
        if self.opened == self.count:
            self.all_open.set()
        updates, in_update = 0, False
        async for line in response.content:
            if line == b"event: update\n":
                in_update = True
            elif line == b"\n" and in_update:  # the event's blank line: it has all arrived
                in_update = False
                updates += 1
                self.arrived(updates)

    async def run(self, orders: Connection) -> None:
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
            gate = asyncio.Semaphore(OPENING)
            readers = [asyncio.create_task(self.one(session, gate)) for _ in range(self.count)]
            opening = asyncio.create_task(self.all_open.wait())
            await asyncio.wait([opening, *readers], return_when=asyncio.FIRST_COMPLETED)
            failed = [r for r in readers if r.done() and r.exception() is not None]
            if failed:
                self.out.send(("failed", repr(failed[0].exception())))
            else:
                self.out.send(("ready", self.opened))
                await asyncio.to_thread(orders.recv)  # "stop"
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
        self.out.send(("stopped", self.most, cpu_seconds(), peak_rss_mib()))


def main(url: str, count: int, out: Connection, orders: Connection) -> None:
    """The watchers process's entry point (see the module's docstring)."""
    raise_open_files(count + 256)
    asyncio.run(Watchers(url, count, out).run(orders))
