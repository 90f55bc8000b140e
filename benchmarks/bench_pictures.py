"""How long a picture takes to draw and how big it is, per game and per kind.

For every game with a picture renderer, random seeded games are played and a
sample of their states is drawn: the public table picture and a seat's hand,
each drawn and encoded as PNG, as the bot sends them. Printed per game and kind:
the p50 and p99 time, and the mean and largest bytes per picture. Then the
pictures are drawn again through ``TablePictures`` (a worker thread) while a
ticker on the event loop measures its longest stall, which shows that drawing
does not hold the loop up.

Run: ``python -m benchmarks.bench_pictures [--states 60] [--players 4] [--game KEY]``.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TextIO

from pydantic import BaseModel

from bot.render.pictures import PICTURES, PictureRenderer
from bot.render.pictures.base import to_png
from bot.render.pictures.maker import TablePictures
from engines.core import Engine, View
from engines.registry import get_engine
from storage.records import SeatRecord, TableRecord, TableStatus

NAMES = [f"Player {n}" for n in range(1, 15)]
TICK = 0.005


def percentile(samples: Sequence[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def sample_states(engine: Engine[Any, Any], players: int, count: int, seed: int) -> list[BaseModel]:
    """``count`` states taken every few moves along random games."""
    rng, states, game = random.Random(seed), list[BaseModel](), 0
    while len(states) < count:
        state = engine.setup(players, engine.parse_options(), seed + game)
        step = 0
        while engine.result(state) is None and len(states) < count:
            if step % 7 == 0:
                states.append(state)
            movers = sorted({p.seat for p in engine.prompts(state)})
            seat, choices = rng.choice([(s, c) for s in movers if (c := engine.legal_actions(state, s))])
            state = engine.apply(state, seat, rng.choice(choices).action).state
            step += 1
        game += 1
    return states


def _timed(draw: Callable[[], Any]) -> tuple[float, int]:
    start = time.perf_counter()
    image = draw()
    png = b"" if image is None else to_png(image)
    return time.perf_counter() - start, len(png)


def measure(
    engine: Engine[Any, Any],
    renderer: PictureRenderer,
    states: list[BaseModel],
    players: int,
    out: TextIO,
    game: str,
) -> None:
    names = NAMES[:players]
    kinds: dict[str, Callable[[BaseModel], Callable[[], Any]]] = {
        "table": lambda s: lambda: renderer.table(engine.view(s, None), names),
        "hand": lambda s: lambda: renderer.hand(engine.view(s, 0), names),
    }
    for kind, make in kinds.items():
        results = [_timed(make(state)) for state in states]
        times = [t for t, size in results if size]
        sizes = [size for _, size in results if size]
        if not sizes:
            continue
        out.write(
            f"{game:<22} {kind:<6} p50 {percentile(times, 0.5) * 1000:7.1f} ms  "
            f"p99 {percentile(times, 0.99) * 1000:7.1f} ms  "
            f"bytes mean {sum(sizes) // len(sizes):>7,}  max {max(sizes):>7,}  ({len(sizes)} pictures)\n"
        )


async def loop_stall(
    engine: Engine[Any, Any],
    game: str,
    states: list[BaseModel],
    players: int,
    draw: bool = True,
    processes: Executor | None = None,
) -> float:
    """The longest time the event loop went without running a ticker while
    ``TablePictures`` drew every state's table picture (with ``draw=False``, while
    it only waited as long: the machine's own noise, for comparison)."""

    def view_of(record: TableRecord, user_id: int | None) -> View:
        assert record.state is not None
        return engine.view(engine.load_state(record.state), None)

    pictures, stall, done = TablePictures(view_of, processes=processes), 0.0, False

    async def ticker() -> None:
        nonlocal stall
        loop = asyncio.get_running_loop()
        while not done:
            before = loop.time()
            await asyncio.sleep(TICK)
            stall = max(stall, loop.time() - before - TICK)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(TICK)
    seats = [SeatRecord(user_id=n + 1, name=NAMES[n]) for n in range(players)]
    for version, state in enumerate(states if draw else []):
        record = TableRecord(
            id="bench",
            game=game,
            status=TableStatus.PLAYING,
            host_id=1,
            version=version,
            created_at=0.0,
            updated_at=0.0,
            seed=0,
            turn_timeout=60.0,
            seats=seats,
            state=engine.dump_state(state),
        )
        await pictures.table(record)
    if not draw:
        await asyncio.sleep(len(states) * 0.03)
    done = True
    await task
    return stall


def run(states: int = 60, players: int = 4, game: str | None = None, out: TextIO = sys.stdout) -> int:
    keys = [game] if game else sorted(PICTURES)
    for key in keys:
        if key not in PICTURES:
            out.write(f"{key}: no picture renderer\n")
            return 1
    out.write(f"Pictures: {states} states per game, {players} players, drawn and PNG-encoded\n")
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        for key in keys:
            engine = get_engine(key)
            sample = sample_states(engine, players, states, seed=1)
            measure(engine, PICTURES[key], sample, players, out, key)
            idle = asyncio.run(loop_stall(engine, key, sample, players, draw=False))
            thread = asyncio.run(loop_stall(engine, key, sample, players))
            asyncio.run(loop_stall(engine, key, sample[:1], players, processes=pool))  # the worker starts
            process = asyncio.run(loop_stall(engine, key, sample, players, processes=pool))
            out.write(
                f"{key:<22} event loop: longest stall {thread * 1000:.1f} ms drawing in a thread, "
                f"{process * 1000:.1f} ms in a process, {idle * 1000:.1f} ms idle\n"
            )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=60, help="states drawn per game (default 60)")
    parser.add_argument("--players", type=int, default=4, help="seats at each table (default 4)")
    parser.add_argument("--game", help="one game key (default: every game with pictures)")
    args = parser.parse_args(argv)
    return run(args.states, args.players, args.game)


if __name__ == "__main__":
    sys.exit(main())
