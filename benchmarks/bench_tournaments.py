"""How long seating a round and rating a round take, for a big field.

Seating: 1,000 players, one round of each format at once — Swiss head to head
(the maximum-weight matching), Swiss at tables of 4 (cut and swap), a round
robin at tables of 5, and a single elimination round — after five simulated
rounds of history, so repeat-avoidance has work to do. Ratings: 1,000 ratings
moved by openskill's Plackett–Luce, as 250 four-player results, and the same
results replayed as a rebuild does. Pure computation: no Redis, no Discord.

Run: ``python -m benchmarks.bench_tournaments [--players 1000]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, TextIO

from bot.service.ratings import apply, replay
from bot.tournaments import pairing
from bot.tournaments.scoring import table_points
from storage.ratings import PlayerRating, RatedResult


def _timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def _history(
    players: list[int], rounds: int, rng: random.Random
) -> tuple[pairing.Meetings, dict[int, float]]:
    met: pairing.Meetings = Counter()
    points = dict.fromkeys(players, 0.0)
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        tables = [order[i : i + 4] for i in range(0, len(order), 4)]
        met += pairing.meetings_of(tables)
        for table in tables:
            for seat, share in table_points([[p] for p in table]).items():
                points[seat] += share
    return met, points


def bench_seating(players: int, out: TextIO) -> None:
    rng = random.Random(1)
    ids = list(range(players))
    met, points = _history(ids, 5, rng)
    standings = sorted(ids, key=lambda p: (-points[p], p))
    byes: Counter[int] = Counter()
    runs = {
        "Swiss, head to head (matching)": lambda: pairing.swiss(standings, points, 2, 2, met, byes),
        "Swiss, tables of 4": lambda: pairing.swiss(standings, points, 4, 3, met, byes),
        "Round robin, tables of 5": lambda: pairing.round_robin(ids, 5, 3, 6, met, byes, 7),
        "Single elimination, tables of 4": lambda: pairing.elimination(standings, 4, 3, 2),
    }
    out.write(f"Seating one round of {players} players (after 5 rounds of history)\n")
    for name, work in runs.items():
        seconds, seating = _timed(work)
        repeats = sum(pairing.repeats(t, met) for t in seating.tables)
        out.write(
            f"  {name:34} {seconds * 1000:9.1f} ms  {len(seating.tables):4} tables  "
            f"{len(seating.byes)} byes  {repeats} repeat meetings\n"
        )


def bench_ratings(players: int, out: TextIO) -> None:
    rng = random.Random(2)
    ids = list(range(players))
    rng.shuffle(ids)
    results = [
        RatedResult(
            table_id=f"t{i}",
            guild_id=1,
            game="g",
            at=float(i),
            sides=[[p] for p in ids[i : i + 4]],
            ranks=rng.sample(range(4), 4),
        )
        for i in range(0, players - players % 4, 4)
    ]
    ratings: dict[int, PlayerRating] = {}

    def update_all() -> int:
        moved = 0
        for result in results:
            changed = apply(result, ratings)
            ratings.update(changed)
            moved += len(changed)
        return moved

    seconds, moved = _timed(update_all)
    out.write(
        f"Updating {moved} ratings ({len(results)} four-player results): {seconds * 1000:.1f} ms, "
        f"{seconds / max(moved, 1) * 1e6:.0f} µs a rating\n"
    )
    seconds, rebuilt = _timed(lambda: replay(results))
    out.write(
        f"Rebuilding them from the stored results: {seconds * 1000:.1f} ms for {len(rebuilt)} players\n"
    )


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    args = parser.parse_args(argv)
    bench_seating(args.players, out)
    bench_ratings(args.players, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
