"""The longest the event loop is blocked by the largest inputs a player may give.

One bot process serves every table from one event loop: while a call holds
the loop, no other click anywhere is answered. This feeds the largest allowed
inputs — a custom deck file just under the 256 KB upload cap with the most
cards it can hold, every option set, the most seats — through what the bot does
for them: read the deck file, create, join, add a bot, render the lobby, start,
render the table and each seat's panel (text and pictures), play moves, and run the timeout sweep.
A probe task measures every gap between its own wake-ups: the worst gap is the
longest single block. The bot's limit is 50 ms. Two figures per step: the
longest gap in wall time (which on a busy machine includes waiting for a CPU),
and the most CPU time the loop's thread spent in one gap (the work itself, which
the limit is about); the load average is printed beside them.

Run: ``python -m benchmarks.bench_loop``. Uses REDIS_URL, else a private
``redis-server`` on a free port (as ``bench_act`` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

from benchmarks.bench_act import connect
from bot.app.cogs.options import DECK_BYTES, read_deck
from bot.app.ui.embeds import table_embed
from bot.app.ui.flows import Flows
from bot.service.tables import Player, TableService
from engines.registry import GAMES
from storage.records import TableRecord, TableStatus
from storage.store import TableStore

LIMIT_MS = 50.0
TICK = 0.0005


@dataclass
class Step:
    name: str
    wall: float
    worst_wall: float
    worst_cpu: float


@dataclass
class LagProbe:
    """Wakes every ``TICK`` and records how late it woke (the loop was blocked
    that long) and how much CPU the loop's thread used meanwhile."""

    worst_wall: float = 0.0
    worst_cpu: float = 0.0
    steps: list[Step] = field(default_factory=list)

    async def run(self) -> None:
        while True:
            before, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(TICK)
            self.worst_wall = max(self.worst_wall, time.perf_counter() - before - TICK)
            self.worst_cpu = max(self.worst_cpu, time.thread_time() - cpu)

    @contextlib.asynccontextmanager
    async def step(self, name: str) -> AsyncIterator[None]:
        await asyncio.sleep(TICK * 4)  # let the probe settle before measuring
        self.worst_wall = self.worst_cpu = 0.0
        started = time.perf_counter()
        yield
        await asyncio.sleep(TICK * 4)  # the probe's wake-up after the last block
        self.steps.append(Step(name, time.perf_counter() - started, self.worst_wall, self.worst_cpu))


def largest_sol_deck(cap: int = DECK_BYTES) -> bytes:
    """A valid Spheres of Life deck file of the most cards allowed (5,000), in
    as many separate kinds as fit under the upload cap, with Heroes for the most seats."""
    from engines.spheres_of_life.cards import MAX_CARDS

    parts = ['name = "Largest allowed deck"\n']
    parts += [
        f'[[abilities]]\nid = "apple{n}"\nname = "Apple {n}"\ntext = "Block."\nsteps = [{{ do = "block" }}]\n'
        for n in range(9)
    ]
    parts += [
        f'[[heroes]]\nid = "sage{n}"\nname = "Sage {n}"\ntext = "Draw."\nsteps = [{{ do = "draw", n = 2 }}]\n'
        for n in range(42)
    ]
    size, left = sum(len(p) for p in parts), MAX_CARDS - (len(parts) - 1)
    animals: list[str] = []
    for number in range(left):
        side = "noble" if number % 2 else "corrupted"
        entry = f'[[animals]]\nid = "a{number}"\nname = "A{number}"\nside = "{side}"\ncopies = {{}}\n'
        if size + len(entry) >= cap:
            break
        animals.append(entry)
        size += len(entry)
    # Two copies of the first kinds, one of the rest: exactly the most cards allowed.
    doubled = left - len(animals)
    parts += [entry.format(2 if number < doubled else 1) for number, entry in enumerate(animals)]
    return "".join(parts).encode()


def largest_soi_deck() -> bytes:
    """The largest tarot allowed (120 cards): the built-in cards, then renamed copies."""
    from engines.scales_of_influence.cards import BUILTIN_DECK

    lines = [f'name = "{"Largest allowed tarot"}"']
    cards = list(BUILTIN_DECK.cards)
    for number in range(120):
        card = cards[number % len(cards)]
        steps = ", ".join(f'{{ do = "{s.do}", n = {s.n} }}' for s in card.effect)
        lines.append(
            f'[[cards]]\nname = "{card.name} {number}"\nelement = "{card.element}"\nrank = {card.rank}\n'
            f"effect = [{steps}]\nnext_day = {str(card.next_day).lower()}\n"
        )
    return "\n".join(lines).encode()


GAME_INPUTS: dict[str, tuple[Callable[[], bytes], dict[str, Any]]] = {
    "spheres-of-life": (
        largest_sol_deck,
        {"goal": "strongest", "pace": True, "decks": 3, "rounds": 5, "first_player": "random"},
    ),
    "scales-of-influence": (largest_soi_deck, {"variant": "standard", "traveler": 0}),
}


async def play_table(service: TableService, probe: LagProbe, game: str, moves: int, out: TextIO) -> str:
    """One table of ``game`` from its deck file to the timeout sweep; returns its id."""
    make_deck, options = GAME_INPUTS[game]
    flows = Flows(service, cast(Any, None))  # panels only: nothing is announced
    engine = service.engine(game)
    data = make_deck()
    out.write(f"{game}: deck file {len(data) / 1024:.0f} KB, options {options}\n")
    async with probe.step(f"{game}: read the deck file"):
        deck = await read_deck(data)
    host = Player(-1, "Seat 1")  # negative ids are never a Discord user's: a shared Redis is safe
    async with probe.step(f"{game}: create the table"):
        record = await service.create(game, host, options={**options, "deck": deck}, seed=1)
    async with probe.step(f"{game}: render the lobby"):
        table_embed(service, record)
    _, most = engine.seat_range(engine.parse_options(record.options))
    people = [host] + [Player(-(n + 1), f"Seat {n + 1}") for n in range(1, most - 1)]
    async with probe.step(f"{game}: {len(people) - 1} joins, each rendered"):
        for person in people[1:]:
            table_embed(service, (await service.join(record.id, person)).table)
    async with probe.step(f"{game}: add a bot"):
        table_embed(service, (await service.add_bot(record.id, host.user_id)).table)
    async with probe.step(f"{game}: start"):
        record = (await service.start(record.id, host.user_id)).table
    async with probe.step(f"{game}: render the table and every panel"):
        await render_all(service, flows, record, people)
    async with probe.step(f"{game}: {moves} moves, each rendered"):
        await play_moves(service, flows, record.id, people, moves)
    async with probe.step(f"{game}: time out the late seats"):
        # This table only, not a whole sweep: REDIS_URL may hold real tables.
        await service.expire_table(record.id, time.time() + 10 * 24 * 3600)
    return record.id


async def render_all(service: TableService, flows: Flows, record: TableRecord, people: list[Player]) -> None:
    table_embed(service, record)
    await flows.pictures.table(record)  # drawn in a worker thread: the loop only waits
    for person in people:
        flows.panel(record, person.user_id)
        await flows.pictures.hand(record, person.user_id)
        await asyncio.sleep(0)


async def play_moves(
    service: TableService, flows: Flows, table_id: str, people: list[Player], moves: int
) -> None:
    rng = random.Random(7)
    for _ in range(moves):
        record = await service.get(table_id)
        if record.status is not TableStatus.PLAYING:
            return
        awaited = [p for p in people if record.seat_of(p.user_id) in service.awaited(record)]
        if not awaited:
            return
        person = awaited[0]
        choice = rng.choice(service.choices(record, person.user_id))
        outcome = await service.act(table_id, person.user_id, choice.key)
        table_embed(service, outcome.table)
        flows.panel(outcome.table, person.user_id)
        await flows.pictures.table(outcome.table)
        await flows.pictures.hand(outcome.table, person.user_id)


async def bench(redis_url: str | None, moves: int, out: TextIO) -> float:
    probe = LagProbe()
    watcher = asyncio.create_task(probe.run())
    try:
        async with connect(redis_url) as (redis, where):
            out.write(f"gametable loop benchmark on {where}\n")
            service = TableService(TableStore(redis), games=GAMES)
            for game in GAME_INPUTS:
                await service.store.delete(await play_table(service, probe, game, moves, out))
    finally:
        watcher.cancel()
    width = max(len(step.name) for step in probe.steps) + 2
    out.write(f"{'step':<{width}}{'wall ms':>10}{'longest block: wall ms':>25}{'loop CPU ms':>14}\n")
    for step in probe.steps:
        out.write(
            f"{step.name:<{width}}{step.wall * 1000:>10.1f}{step.worst_wall * 1000:>25.1f}"
            f"{step.worst_cpu * 1000:>14.1f}\n"
        )
    worst = max(step.worst_cpu for step in probe.steps)
    verdict = "within" if worst * 1000 <= LIMIT_MS else "OVER"
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    out.write(
        f"longest block of the event loop: {worst * 1000:.1f} ms of CPU ({verdict} the {LIMIT_MS:.0f} ms "
        f"limit); {max(s.worst_wall for s in probe.steps) * 1000:.1f} ms wall on this machine "
        f"({os.cpu_count()} CPUs, load average {load})\n"
    )
    return worst


def run(redis_url: str | None = None, moves: int = 40, out: TextIO = sys.stdout) -> int:
    worst = asyncio.run(bench(redis_url, moves, out))
    return 0 if worst * 1000 <= LIMIT_MS else 1


if __name__ == "__main__":
    sys.exit(run(os.environ.get("REDIS_URL")))
