"""How long a game of Phase lasts when bots play every seat, with no round limit.

The rulebook's only end is an empty good or evil pool in the Nexus, then the
round is played out; a round limit is a table option, off by default. This
plays seeded games with a bot at every seat (the easy level unless told) at
each table size, to the rulebook's end, and prints rounds and moves p50/p99
per size, and how many games did not end within the bound of moves (none
should: each is listed by its seed).

Run: ``python -m benchmarks.bench_phase_length [--games 20] [--level easy] [--max-steps 20000]``
(one process: one core).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from engines.ai import LEVELS, Level
from engines.ai.search import choose
from engines.phase import ENGINE, PhState

SIZES = (2, 3)


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def one_game(players: int, seed: int, level: Level, max_steps: int) -> tuple[int, int] | None:
    """Game ``seed`` with ``level`` bots at every seat: its rounds and moves, or
    ``None`` when it did not end within ``max_steps`` moves."""
    state: PhState = ENGINE.setup(players, ENGINE.parse_options({}), seed)
    for step in range(max_steps):
        if ENGINE.result(state) is not None:
            return state.round_no, step
        seat = min(p.seat for p in ENGINE.prompts(state))
        chosen = choose(ENGINE, state, seat, level, f"{seed}:{step}")
        state = ENGINE.apply(state, seat, chosen.action, in_place=True).state
    return None


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games per table size (default 20)")
    parser.add_argument("--level", choices=sorted(LEVELS), default="easy", help="the bots' level")
    parser.add_argument("--max-steps", type=int, default=20_000, help="moves before a game counts as unended")
    args = parser.parse_args(argv)
    level = LEVELS[args.level]
    for players in SIZES:
        started = time.perf_counter()
        rounds: list[int] = []
        moves: list[int] = []
        unended: list[int] = []
        for seed in range(args.games):
            found = one_game(players, seed, level, args.max_steps)
            if found is None:
                unended.append(seed)
                continue
            rounds.append(found[0])
            moves.append(found[1])
        took = time.perf_counter() - started
        line = f"phase {players} players, {args.games} games, {level.name} bots at every seat: "
        if rounds:
            line += (
                f"rounds p50 {percentile(rounds, 0.5)} p99 {percentile(rounds, 0.99)} "
                f"(max {max(rounds)}), moves p50 {percentile(moves, 0.5)} "
                f"p99 {percentile(moves, 0.99)}; "
            )
        line += f"unended {len(unended)}" + (f" (seeds {unended})" if unended else "") + f"; {took:.0f} s"
        print(line, file=out, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
