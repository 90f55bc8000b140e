"""Engine steps per second for each landed game, with no storage at all.

Two figures per game over whole random games: a *playout* step as
:func:`engines.playout.playout` takes it (every prompted seat's legal actions,
then the move, trusted as the table service trusts a button), and a *table*
step as :meth:`bot.service.tables.TableService.act` takes it (the mover's legal
actions, the move, who is awaited next and whether the game is over).

Run: ``python -m benchmarks.bench_engine [--games 20] [--players 4]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from engines.core import Engine
from engines.playout import playout
from engines.registry import GAMES


def playout_rate(engine: Engine[Any, Any], players: int, games: int) -> float:
    steps = 0

    def count(*_: Any) -> None:
        nonlocal steps
        steps += 1

    started = time.perf_counter()
    for seed in range(games):
        playout(engine, players, seed=seed, in_place=True, checked=False, after_step=count)
    return steps / (time.perf_counter() - started)


def table_rate(engine: Engine[Any, Any], players: int, games: int) -> float:
    steps, started = 0, time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.setup(players, engine.parse_options(), seed)
        while engine.result(state) is None and steps < 10**7:
            seats = [p.seat for p in engine.prompts(state)]
            rng.shuffle(seats)
            for seat in seats:
                choices = engine.legal_actions(state, seat)
                if choices:
                    action = rng.choice(choices).action
                    state = engine.apply(state, seat, action, in_place=True, legal=True).state
                    steps += 1
                    break
            else:
                raise RuntimeError("no seat can move and the game is not over")
    return steps / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    cli = parser.parse_args(argv)
    for key, engine in GAMES.items():
        low, high = engine.info.min_players, engine.info.max_players
        players = min(max(cli.players, low), high)
        print(
            f"{key:<24} playout {playout_rate(engine, players, cli.games):>8,.0f} steps/s"
            f"   table {table_rate(engine, players, cli.games):>8,.0f} steps/s   ({players} players)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
