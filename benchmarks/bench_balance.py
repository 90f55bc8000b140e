"""Whether every seat has a fair chance: equal bots at every seat, per game and table size.

For each game at every table size it supports (or the ones asked), bots of one
level (the ``engines.ai`` levels) play every seat over seeded games, and it
prints:

- each seat's share of the wins, with its 95% Wilson interval, beside the fair
  share (one over the players). A win shared by k seats gives each 1/k — a
  k-way tie, or a side of k players winning together — so the shares of a game
  add up to one and an even game gives every seat the same share. Shares are
  told twice: by seat number (what a seat is given at setup: a body system, a
  place at the table) and by turn order (the first player, the second…, from
  the engine's ``first_player``: several games draw who begins);
- in team games each side's share of the games (a side wins a game when one of
  its seats is among the winners; a game won by several sides is split as its
  seats are), beside its fair share: one over the sides in play, so that a
  player has the same chance to win whatever side they are dealt;
- game length: moves, and rounds as the game counts them, p50 and p99;
- how often each card, space or pick of the game's content (named by the
  engine's ``content_of``) was offered and chosen: "offered in X games, chosen
  in Y of them", least chosen first; one offered in 20 games or more and
  chosen in under 5% of them is marked.

A seat or side more than 5 points from fair is marked, and said to be sure
when fair lies outside its 95% interval. No figure is timed (each table's line
tells how long its games took, for planning a longer run).

Run: ``python -m benchmarks.bench_balance [--games 120] [--level easy] [--jobs 1]
[--game KEY] [--players N] [--first-seed 0]``. ``--jobs`` plays games in that
many processes; runs on disjoint seeds (``--first-seed``) add up.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

from benchmarks.bench_bots import percentile
from engines.ai import LEVELS
from engines.ai.levels import level_of
from engines.ai.match import Unfinished, play_match
from engines.core import Choice, Result, Seat
from engines.registry import GAMES

ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th"]
# A seat or side this far from its fair share is marked.
OFF_FAIR = 0.05
# Content chosen in fewer of the games that offered it is marked...
RARELY = 0.05
# ...once it was offered in this many games (fewer say too little).
OFFERED_ENOUGH = 20


@dataclass
class Tally:
    """One game: who won what share, how long it ran, what was offered and chosen."""

    seed: int
    seats: dict[Seat, float] = field(default_factory=dict)
    sides: dict[str, float] = field(default_factory=dict)
    # One over the number of sides in play (a team game's fair share per side).
    side_fair: float = 0.0
    moves: int = 0
    rounds: int | None = None
    offered: set[str] = field(default_factory=set)
    chosen: set[str] = field(default_factory=set)
    finished: bool = True
    # The seat that played first (seats play on clockwise from it).
    first: Seat | None = None

    def by_turn(self, players: int) -> dict[int, float]:
        """The win shares by place in the turn order (0: the first player)."""
        first = self.first or 0
        return {(seat - first) % players: won for seat, won in self.seats.items()}


def split_win(result: Result) -> tuple[dict[Seat, float], dict[str, float]]:
    """The game's one win split among its winners, 1/k each, and each side's
    part of it (the parts of its winning seats)."""
    winners = result.winners
    seats = {seat: 1.0 / len(winners) for seat in winners}
    sides = {
        side: sum(seats.get(seat, 0.0) for seat in members) for side, members in (result.teams or {}).items()
    }
    return seats, sides


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of ``games`` (fractional wins
    count as their share)."""
    if games <= 0:
        return 0.0, 1.0
    share = wins / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def one_game(key: str, players: int, level: str, seed: int) -> Tally:
    engine = GAMES[key]
    tally = Tally(seed=seed)

    def watch(state: Any, seat: Seat, choice: Choice) -> None:
        tally.moves += 1
        if tally.first is None:
            tally.first = engine.first_player(state)
        for option in engine.moves(state, seat):
            name = engine.content_of(state, option)
            if name is not None:
                tally.offered.add(name)
        name = engine.content_of(state, choice)
        if name is not None:
            tally.chosen.add(name)
            tally.offered.add(name)

    bots = dict.fromkeys(range(players), level_of(level))
    try:
        match = play_match(engine, players, seed, bots, watch=watch)
    except Unfinished:
        tally.finished = False
        return tally
    tally.seats, tally.sides = split_win(match.result)
    tally.side_fair = 1.0 / len(tally.sides) if tally.sides else 0.0
    tally.rounds = engine.rounds_of(match.state)
    if tally.first is None:
        tally.first = engine.first_player(match.state)
    return tally


def _games(key: str, players: int, level: str, seeds: range, jobs: int) -> Iterator[Tally]:
    game = partial(one_game, key, players, level)
    if jobs <= 1:
        yield from map(game, seeds)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(game, seeds, chunksize=max(1, len(seeds) // (jobs * 8)))


def _mark(share: float, fair: float, low: float, high: float) -> str:
    """More than 5 points off is marked; so is a share whose 95% interval
    leaves out the fair share (few games make 5 points mere chance)."""
    if abs(share - fair) <= OFF_FAIR:
        return ""
    sure = "; fair is outside the 95% interval" if not low <= fair <= high else ""
    return f"  ← more than 5 points from fair{sure}"


def share_line(name: str, wins: float, games: int, fair: float) -> str:
    low, high = wilson(wins, games)
    return (
        f"  {name}: {wins:g}/{games} = {wins / games:.1%} (95% {low:.1%}–{high:.1%}),"
        f" fair {fair:.1%}{_mark(wins / games, fair, low, high)}"
    )


def length_line(tallies: Sequence[Tally]) -> str:
    moves = [float(t.moves) for t in tallies]
    rounds = [float(t.rounds) for t in tallies if t.rounds is not None]
    line = f"  length: moves p50 {percentile(moves, 0.5):.0f} p99 {percentile(moves, 0.99):.0f}"
    if rounds:
        line += f"; rounds p50 {percentile(rounds, 0.5):.0f} p99 {percentile(rounds, 0.99):.0f}"
    return line


def content_lines(tallies: Iterable[Tally]) -> list[str]:
    offered: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    for tally in tallies:
        offered.update(tally.offered)
        chosen.update(tally.chosen)
    if not offered:
        return []
    lines = ["  content (offered in X games, chosen in Y of them), least chosen first:"]
    for name in sorted(offered, key=lambda n: (chosen[n] / offered[n], n)):
        rate = chosen[name] / offered[name]
        rare = offered[name] >= OFFERED_ENOUGH and rate < RARELY
        lines.append(
            f"    {name}: offered in {offered[name]}, chosen in {chosen[name]} ({rate:.0%})"
            + ("  ← chosen in under 5%" if rare else "")
        )
    return lines


def report(title: str, players: int, tallies: Sequence[Tally]) -> list[str]:
    """The figures of one table size, as printed."""
    done = [t for t in tallies if t.finished]
    lines = [f"{title}, {players} players: {len(done)} games"]
    never = sorted(t.seed for t in tallies if not t.finished)
    if never:
        lines[0] += f"; {len(never)} never ended (seeds {', '.join(map(str, never))}), left out"
    if not done:
        return lines
    games = len(done)
    for seat in range(players):
        wins = sum(t.seats.get(seat, 0.0) for t in done)
        lines.append(share_line(f"seat {seat}", wins, games, 1 / players))
    for place in range(players):
        wins = sum(t.by_turn(players).get(place, 0.0) for t in done)
        lines.append(share_line(f"{ORDINALS[place]} to play", wins, games, 1 / players))
    sides = sorted({side for t in done for side in t.sides})
    for side in sides:
        wins = sum(t.sides.get(side, 0.0) for t in done)
        fair = sum(t.side_fair for t in done if side in t.sides) / games
        lines.append(share_line(side, wins, games, fair))
    lines.append(length_line(done))
    return lines + content_lines(done)


def run(
    games: int,
    level: str,
    keys: Sequence[str],
    out: TextIO,
    only: Sequence[int] | None = None,
    jobs: int = 1,
    first: int = 0,
) -> None:
    seeds = range(first, first + games)
    out.write(
        f"Balance: {level} bots at every seat, {games} seeded games per table size"
        f" (seeds {first}-{first + games - 1})\n"
    )
    for key in keys:
        engine = GAMES[key]
        sizes = range(engine.info.min_players, engine.info.max_players + 1)
        asked = [n for n in sizes if not only or n in only]
        if not asked:
            out.write(
                f"{engine.info.title}: no table of {', '.join(map(str, only or []))} players"
                f" ({sizes[0]}–{sizes[-1]})\n"
            )
        for players in asked:
            started = time.perf_counter()
            tallies = list(_games(key, players, level, seeds, jobs))
            lines = report(engine.info.title, players, tallies)
            lines[0] += f" [{time.perf_counter() - started:.0f} s]"
            out.write("\n".join(lines) + "\n")
            out.flush()


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=120, help="games per table size (default 120)")
    parser.add_argument("--level", choices=sorted(LEVELS), default="easy", help="bots' level (default easy)")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this table size (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in processes (default 1)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed (default 0)")
    args = parser.parse_args(argv)
    run(
        max(1, args.games),
        args.level,
        args.game or sorted(GAMES),
        out,
        args.players,
        max(1, args.jobs),
        max(0, args.first_seed),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
