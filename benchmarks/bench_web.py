"""How fast the web pages answer, and how fast a saved move reaches a thousand watchers.

Pages: ``GET`` through aiohttp's client against the whole web application on a
real ``web.AppRunner`` on loopback, one request at a time, p50/p99 of the
answer read whole: a live table page (Phase, in play), a replay page of a
finished game of 500 moves or more (Time Masters, random legal moves) at
several steps, and the standings page of a 256-player Swiss tournament (Scales
of Influence, tables of 4) after its first rounds. A page whose route is not
built prints so and the benchmark moves on.

Live fan-out: N watchers of one table (``--watchers``, default 100 and 1,000)
as real Server-Sent Events readers on loopback, in a process of their own
(:mod:`benchmarks.web_watchers`); a move is saved through the service and the
time from the save's return to the last watcher's update is taken, for
``--moves`` moves spaced at random so they fall anywhere in the hub's poll. It
streams the table page's own event route when there is one; else a route of
the benchmark's own built on :func:`bot.web.live.stream` with the table's
version as the fingerprint and the public table panel as the update. With the
serving process's CPU seconds and peak memory (goal: p99 under 1 s at 1,000
watchers on one process).

Run: ``python -m benchmarks.bench_web [--watchers 100,1000] [--quick]``. Uses
REDIS_URL (a throwaway database: it leaves server 4242's settings, tables and a
tournament in it), else a private ``redis-server`` on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TextIO

import aiohttp
from aiohttp import web
from markupsafe import escape

from benchmarks import web_watchers
from benchmarks.bench_act import connect, percentile
from bot.ops import collector
from bot.service.errors import TableError
from bot.service.ratings import RatingService
from bot.service.table_panel import table_panel
from bot.service.tables import Player, TableService
from bot.tournaments.service import TournamentService
from bot.web import links, live
from bot.web.server import application
from bot.web.site import Site, site_of
from storage import keys
from storage.ratings import RatingStore
from storage.records import TableRecord, TableStatus
from storage.store import TableStore
from storage.tournaments import Format, Tournament, TournamentStore

GUILD = 4242
HUMANS = [Player(1001, "Ada"), Player(1002, "Brook")]
REPLAY_GAME, REPLAY_MOVES = "time-masters", 500
MOVES_BOUND = 5000  # a random game that has not ended by then is left for the next seed
LIVE_GAME = "phase"
FIELD, TOURNAMENT_GAME = 256, "scales-of-influence"
OWN_EVENTS = "/bench/events/{table}"
renders = 0  # updates built by the benchmark's own event route


@dataclass
class Bench:
    site: Site
    base: str
    session: aiohttp.ClientSession
    samples: int
    out: TextIO
    rng: random.Random

    @property
    def service(self) -> TableService:
        return self.site.service


# ----- tables --------------------------------------------------------------------------


async def new_table(service: TableService, game: str, seed: int) -> TableRecord:
    record = await service.create(game, HUMANS[0], guild_id=GUILD, channel_id=1, seed=seed)
    await service.join(record.id, HUMANS[1])
    return (await service.start(record.id, HUMANS[0].user_id)).table


async def move(service: TableService, record: TableRecord, rng: random.Random) -> TableRecord | None:
    """One random legal move by a seat the table waits for; None when none can move."""
    if record.status is not TableStatus.PLAYING:
        return None
    for seat in service.awaited(record) or [p.seat for p in service.prompts(record)]:
        user_id = record.seats[seat].user_id
        choices = service.choices(record, user_id) if user_id is not None else []
        if user_id is not None and choices:
            try:
                return (await service.act(record.id, user_id, rng.choice(choices).key)).table
            except TableError:
                return await service.get(record.id)
    return None


async def long_game(service: TableService, rng: random.Random) -> tuple[TableRecord, int]:
    """A finished game of at least :data:`REPLAY_MOVES` moves (the first seed that plays one)."""
    for seed in range(100):
        last = await new_table(service, REPLAY_GAME, seed)
        moves = 0
        while moves < MOVES_BOUND and (after := await move(service, last, rng)) is not None:
            last, moves = after, moves + 1
        if last.status is TableStatus.FINISHED and moves >= REPLAY_MOVES:
            return last, moves
        await service.store.delete(last.id)
    raise RuntimeError(f"no {REPLAY_GAME} game of {REPLAY_MOVES} moves in 100 seeds")


async def tournament(site: Site, rounds: int) -> Tournament:
    """A Swiss of :data:`FIELD` players with ``rounds`` rounds played out and the next seated."""
    service = site.tournaments
    t = await service.create(
        name="Bench Cup",
        game=TOURNAMENT_GAME,
        organiser_id=HUMANS[0].user_id,
        guild_id=GUILD,
        channel_id=1,
        fmt=Format.SWISS,
        table_size=4,
        rounds=rounds + 1,
    )
    for n in range(FIELD):
        await service.join(t.id, Player(2000 + n, f"Player {n + 1}"))
    t = await service.start(t.id)
    for _ in range(rounds):
        await service.seat_round(t.id)
        await service.decide(t.id, "play-out")
        await service.advance(t.id)
    return await service.seat_round(t.id)


# ----- page renders --------------------------------------------------------------------


async def timed_gets(bench: Bench, label: str, path: str) -> None:
    """p50/p99 of ``GET path`` read whole, or "not built yet" when it answers 404."""
    async with bench.session.get(path) as first:
        body = await first.read()
        if first.status == 404:
            bench.out.write(f"  {label:<46} not built yet\n")
            return
        if first.status != 200:
            bench.out.write(f"  {label:<46} answered {first.status}\n")
            return
    times = []
    for n in range(bench.samples + 3):
        start = time.perf_counter()
        async with bench.session.get(path) as answer:
            await answer.read()
        if n >= 3:  # the first few warm the caches
            times.append(time.perf_counter() - start)
    bench.out.write(
        f"  {label:<46} p50 {statistics.median(times) * 1e3:7.2f} ms   "
        f"p99 {percentile(times, 0.99) * 1e3:7.2f} ms   {len(body) / 1024:6.1f} KiB\n"
    )


async def bench_table_page(bench: Bench, record: TableRecord) -> None:
    await timed_gets(bench, f"live table page ({LIVE_GAME}, move {record.version})", table_path(record))


async def bench_replay_page(bench: Bench, record: TableRecord, moves: int) -> None:
    path = links.replay("", GUILD, record.id)
    await timed_gets(bench, f"replay page ({moves} moves), no step given", path)
    for step in (0, 100, moves // 2, moves):
        await timed_gets(bench, f"replay page, step {step}", links.replay("", GUILD, record.id, step))


async def bench_tournament_page(bench: Bench, t: Tournament) -> None:
    played = len(t.rounds) - 1
    label = f"tournament page ({FIELD} players, {played} round{'s' * (played != 1)} played)"
    await timed_gets(bench, label, links.tournament("", GUILD, t.id))


# ----- live fan-out --------------------------------------------------------------------


def table_path(record: TableRecord) -> str:
    return links.table("", GUILD, record.id)


def live_part(site: Site, record: TableRecord) -> str:
    """The public table panel as plain HTML: what the benchmark's own route sends."""
    panel = table_panel(site.service, record, lambda seat: seat.name)
    fields = "".join(f"<dt>{escape(f.name)}</dt><dd>{escape(f.value)}</dd>" for f in panel.fields)
    return (
        f'<section data-version="{record.version}"><h2>{escape(panel.title)}</h2>'
        f"<p>{escape(panel.description)}</p><dl>{fields}</dl><p>{escape(panel.footer)}</p></section>"
    )


async def own_events(request: web.Request) -> web.StreamResponse:
    site, table_id = site_of(request), request.match_info["table"]
    redis = site.service.store.redis

    async def fingerprint() -> Any:
        return await redis.hget(keys.table(table_id), "version")

    async def render() -> str:
        global renders
        renders += 1
        return live_part(site, await site.service.get(table_id))

    return await live.stream(request, site.hub, f"bench:{table_id}", fingerprint, render, await fingerprint())


async def events_path(bench: Bench, record: TableRecord) -> tuple[str, str]:
    """The table page's own event stream when it has one, else the benchmark's route."""
    path = table_path(record) + "/events"
    async with bench.session.get(path) as answer:
        if answer.status == 200 and answer.content_type == "text/event-stream":
            return path, "the table page's /events route"
    return OWN_EVENTS.format(table=record.id), "the benchmark's own route on bot.web.live.stream"


async def _receive(reports: Connection, seconds: float) -> Any:
    """The watchers' next report, or None when none comes within ``seconds``."""
    ready = await asyncio.to_thread(reports.poll, seconds)
    return reports.recv() if ready else None


def _watching(site: Site) -> int:
    return sum(len(topic.watchers) for topic in site.hub.topics.values())


async def bench_fan_out(bench: Bench, count: int, moves: int) -> None:
    global renders
    service, out = bench.service, bench.out
    record: TableRecord | None = await new_table(service, LIVE_GAME, seed=count)
    for _ in range(10):
        record = await move(service, record, bench.rng) if record is not None else None
    assert record is not None, "the live game ended in its first moves"
    path, how = await events_path(bench, record)
    context = multiprocessing.get_context("spawn")
    reports, report_end = context.Pipe(duplex=False)
    order_end, orders = context.Pipe(duplex=False)
    watchers = context.Process(
        target=web_watchers.main, args=(bench.base + path, count, report_end, order_end), daemon=True
    )
    watchers.start()
    ready = await _receive(reports, 300)
    if not ready or ready[0] != "ready":
        out.write(f"  {count} watchers: could not open them all ({ready})\n")
        watchers.kill()
        return
    for _ in range(100):  # every stream is in the hub before the first move
        if _watching(bench.site) >= count:
            break
        await asyncio.sleep(0.05)
    renders, latencies, firsts, missed = 0, [], [], 0
    cpu, wall = web_watchers.cpu_seconds(), time.perf_counter()
    for _ in range(moves):
        await asyncio.sleep(bench.rng.uniform(0.2, 0.5))
        record = await move(service, record, bench.rng)
        saved = time.monotonic()
        if record is None:
            break
        done = await _receive(reports, 10)
        if done is None:  # a move that changed nothing public sends nothing
            missed += 1
            continue
        latencies.append(done[2] - saved)
        firsts.append(done[3] - saved)
    cpu, wall = web_watchers.cpu_seconds() - cpu, time.perf_counter() - wall
    built = f"{renders} updates built" if path.startswith("/bench/") else "updates built by the page"
    orders.send("stop")
    stopped = await _receive(reports, 60)
    watchers.join(10)
    if record is not None:  # one more change, so the streams the watchers closed find out
        await move(service, record, bench.rng)
    for _ in range(50):
        if _watching(bench.site) == 0:
            break
        await asyncio.sleep(0.1)
    if not latencies:
        out.write(f"  {count} watchers: no update arrived ({missed} moves without one)\n")
        return
    out.write(
        f"  {count:>5} watchers ({how}):\n"
        f"        save → last watcher's update   p50 {statistics.median(latencies) * 1e3:7.1f} ms   "
        f"p99 {percentile(latencies, 0.99) * 1e3:7.1f} ms   max {max(latencies) * 1e3:7.1f} ms"
        f"   ({len(latencies)} moves, {missed} without an update)\n"
        f"        save → first watcher's update  p50 {statistics.median(firsts) * 1e3:7.1f} ms   "
        f"p99 {percentile(firsts, 0.99) * 1e3:7.1f} ms\n"
        f"        serving process: {cpu:.2f} CPU s over {wall:.1f} s "
        f"({cpu / len(latencies) * 1e3:.0f} ms a move), "
        f"peak RSS {web_watchers.peak_rss_mib():.0f} MiB; {built}\n"
    )
    if stopped:
        out.write(
            f"        watchers' process: {stopped[2]:.2f} CPU s, peak RSS {stopped[3]:.0f} MiB; "
            f"most updates one watcher got: {stopped[1]}; still in the hub after: {_watching(bench.site)}\n"
        )


# ----- the whole run -------------------------------------------------------------------


async def serve(site: Site) -> tuple[web.AppRunner, str]:
    app = application(site)
    app.router.add_get(OWN_EVENTS, own_events)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    # A backlog that holds every watcher connecting at once.
    server = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
    await server.start()
    port = server._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


async def _main(
    watchers: Sequence[int], samples: int, moves: int, rounds: int, pages: bool, out: TextIO
) -> int:
    limit = web_watchers.raise_open_files(max(watchers, default=0) + 1024)
    try:
        async with connect(os.environ.get("REDIS_URL")) as (redis, where):
            service = TableService(TableStore(redis))
            ratings = RatingService(RatingStore(redis), service.clock)
            site = Site(service, TournamentService(TournamentStore(redis), service, ratings), ratings)
            settings = await site.settings.guild(GUILD)
            settings.web = True
            await site.settings.save_guild(settings)
            out.write(f"gametable web bench on {where}; open files allowed: {limit}\n")
            runner, base = await serve(site)
            try:
                async with aiohttp.ClientSession(base) as session:
                    bench = Bench(site, base, session, samples, out, random.Random(1))
                    if pages:
                        await _pages(bench, rounds)
                    out.write(f"Live fan-out ({moves} moves each)\n")
                    for count in watchers:
                        await bench_fan_out(bench, count, moves)
            finally:
                await runner.cleanup()
    except LookupError as missing:
        out.write(f"gametable web bench: {missing}.\n")
        return 1
    return 0


async def _pages(bench: Bench, rounds: int) -> None:
    out, started = bench.out, time.perf_counter()
    playing: TableRecord | None = await new_table(bench.service, LIVE_GAME, seed=7)
    for _ in range(60):
        playing = await move(bench.service, playing, bench.rng) if playing is not None else None
    assert playing is not None, "the live game ended in its first moves"
    finished, moves = await long_game(bench.service, bench.rng)
    cup = await tournament(bench.site, rounds)
    out.write(f"(set up in {time.perf_counter() - started:.1f} s)\n")
    out.write(f"Page renders ({bench.samples} GETs each, one at a time, on loopback)\n")
    await bench_table_page(bench, playing)
    await bench_replay_page(bench, finished, moves)
    await bench_tournament_page(bench, cup)


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--watchers", help="watcher counts for the fan-out, e.g. 100,1000 (default)")
    parser.add_argument("--quick", action="store_true", help="fewer samples, moves and rounds; 100 watchers")
    parser.add_argument("--samples", type=int, help="GETs per page (default 200, quick 30)")
    parser.add_argument("--moves", type=int, help="moves per fan-out (default 20, quick 5)")
    parser.add_argument("--no-pages", action="store_true", help="the live fan-out only")
    args = parser.parse_args(argv)
    watchers = [int(n) for n in (args.watchers or ("100" if args.quick else "100,1000")).split(",") if n]
    samples = args.samples or (30 if args.quick else 200)
    moves = args.moves or (5 if args.quick else 20)
    with collector.serving():  # as in `gametable run`: the figures are a serving process's
        return asyncio.run(_main(watchers, samples, moves, 1 if args.quick else 3, not args.no_pages, out))


if __name__ == "__main__":
    raise SystemExit(main())
