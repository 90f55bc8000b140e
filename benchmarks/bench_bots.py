"""How well and how fast the bots play, per game and player count.

For each game at its smallest and largest table: the normal bot (one seat,
moving seat each game) against random players over seeded games — its share of
the wins beside its fair share (1/players, and the share the same seat wins on
the same seeds when everyone plays at random, which differs in team games) —
a win shared by a tie counting as its share (1/k for k tied winners; a team's
win counts whole, as the search scores it), so the shares add up to one game
and the decision time p50/p99 at each difficulty. Then the hard bot against
normal bots at the smallest table.

Run: ``python -m benchmarks.bench_bots [--games 1000] [--versus 100] [--game KEY] [--players N] [--jobs 2]``
(``--versus 0``: no hard-against-normal games). ``--jobs`` plays games in that
many processes at once (one per core: decision times stay those of one core).
A thousand games per table size take hours on a small machine: pass fewer and
the figures say how many were played, with a 95% interval on each win share,
or split them (``--first-seed 500 --games 500`` plays seeds 500-999; the wins
of runs on disjoint seeds add up).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any, TextIO

from engines.ai import LEVELS, Level
from engines.ai.match import Unfinished, play_match
from engines.core import Engine, Result, Seat
from engines.playout import playout
from engines.registry import GAMES


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def times(decisions: Mapping[str, list[float]], name: str) -> str:
    seconds = decisions.get(name, [])
    if not seconds:
        return f"{name}: no decisions"
    p50, p99 = percentile(seconds, 0.5) * 1000, percentile(seconds, 0.99) * 1000
    return f"{name} p50 {p50:.0f} ms p99 {p99:.0f} ms ({len(seconds)} decisions)"


def share(result: Result, seat: Seat) -> float:
    """The part of a game's win ``seat`` takes: 1 alone, 1/k of a k-way tie (as
    ``ranking_score``, which the search maximizes), 1 with a winning team."""
    winners = result.winners
    if seat not in winners:
        return 0.0
    return 1.0 if result.teams else 1.0 / len(winners)


def one_game(
    key: str, players: int, hero: Level, others: Level | None, seed: int
) -> tuple[float, float, dict[str, list[float]]]:
    """Game ``seed``: the hero's seat's share of the win, the same seat's share
    in the all-random game on the same seed, and the decision times. A game
    that never ends is no win, and is listed under ``"unfinished"`` (its seed),
    so one such game does not lose hours of others."""
    engine = GAMES[key]
    seat = seed % players
    bots = {s: others for s in range(players) if others is not None} | {seat: hero}
    at_random = playout(engine, players, seed=seed, in_place=True)[1]
    try:
        match = play_match(engine, players, seed, bots)
    except Unfinished:
        return 0.0, share(at_random, seat), {"unfinished": [float(seed)]}
    decisions = {**match.decisions, "optional plays": [0.0] * match.optional_plays}
    return share(match.result, seat), share(at_random, seat), decisions


def duel(
    engine: Engine[Any, Any],
    players: int,
    games: int,
    hero: Level,
    others: Level | None,
    jobs: int = 1,
    first: int = 0,
    progress: TextIO | None = None,
) -> tuple[float, float, dict[str, list[float]]]:
    """``hero`` in seat ``seed % players`` against ``others`` (None: random):
    the hero's wins, the same seat's wins in all-random games, decision times
    (``"optional plays"``: one entry per optional play made). ``progress``
    hears the wins so far every ``PROGRESS_EVERY`` games, so an hours-long run
    stopped early still tells what it found."""
    wins = baseline = 0.0
    decisions: dict[str, list[float]] = {"optional plays": []}
    seeds = range(first, first + games)
    for played, (won, won_at_random, seconds) in enumerate(
        _games(partial(one_game, engine.info.key, players, hero, others), seeds, jobs), start=1
    ):
        wins += won
        baseline += won_at_random
        if progress is not None and played % PROGRESS_EVERY == 0 and played < games:
            progress.write(f"  ... {hero.name} wins {wins:g}/{played} (seeds {first}-{seeds[played - 1]})\n")
            progress.flush()
        for name, spent in seconds.items():
            decisions.setdefault(name, []).extend(spent)
    return wins, baseline, decisions


PROGRESS_EVERY = 50


def _games(
    game: partial[tuple[float, float, dict[str, list[float]]]], seeds: range, jobs: int
) -> Iterator[tuple[float, float, dict[str, list[float]]]]:
    if jobs <= 1:
        yield from map(game, seeds)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(game, seeds, chunksize=max(1, len(seeds) // (jobs * 8)))


def unfinished(decisions: Mapping[str, list[float]]) -> str:
    seeds = sorted(int(seed) for seed in decisions.get("unfinished", []))
    return f"; {len(seeds)} never ended (seeds {', '.join(map(str, seeds))})" if seeds else ""


def interval(wins: float, games: int) -> str:
    """The 95% Wilson interval of a win share, so a small sample says how unsure it is."""
    if not games:
        return ""
    z, share = 1.96, wins / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return f", 95% {max(0.0, centre - spread):.0%}–{min(1.0, centre + spread):.0%}"


def run(
    games: int,
    versus: int,
    keys: list[str],
    out: TextIO,
    only: list[int] | None = None,
    jobs: int = 1,
    first: int = 0,
) -> None:
    out.write(
        f"Bots: {games} seeded games per table size (seeds {first}-{first + games - 1}),"
        f" {versus} for hard against normal\n"
    )
    for key in keys:
        engine = GAMES[key]
        sizes = sorted({engine.info.min_players, engine.info.max_players})
        if only:
            sizes = [n for n in only if engine.info.min_players <= n <= engine.info.max_players]
        for players in sizes:
            started = time.perf_counter()
            wins, baseline, decisions = duel(
                engine, players, games, LEVELS["normal"], None, jobs, first, progress=out
            )
            # Told before the easy bot's games start: hours of games are never lost to them.
            out.write(
                f"{engine.info.title}, {players} players: normal bot wins {wins:g}/{games}"
                f" = {wins / games:.0%}"
                f"{interval(wins, games)}"
                f" (fair share {1 / players:.0%}; this seat under random play {baseline / games:.0%})"
                f" [{time.perf_counter() - started:.0f} s]{unfinished(decisions)}\n"
                f"  {times(decisions, 'normal')}\n"
                f"  out of turn: {times(decisions, 'normal optional')},"
                f" {len(decisions['optional plays'])} optional plays made\n"
            )
            out.flush()
            easy = duel(engine, players, max(1, games // 10), LEVELS["easy"], None, jobs, first)[2]
            out.write(f"  {times(easy, 'easy')}{unfinished(easy)}\n")
        if versus <= 0:
            continue
        players = engine.info.min_players
        wins, _, decisions = duel(engine, players, versus, LEVELS["hard"], LEVELS["normal"], jobs, first)
        out.write(
            f"{engine.info.title}, {players} players: hard bot against normal bots wins {wins:g}/{versus}"
            f" = {wins / versus:.0%}{interval(wins, versus)} (fair share {1 / players:.0%})"
            f"{unfinished(decisions)}\n"
            f"  {times(decisions, 'hard')}; {times(decisions, 'normal')}\n"
        )
        out.flush()


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000, help="games per table size (default 1000)")
    parser.add_argument("--versus", type=int, default=100, help="games of hard against normal (default 100)")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this table size (repeatable)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played at once, in that many processes (default 1)"
    )
    parser.add_argument(
        "--first-seed", type=int, default=0, help="the first game's seed, to split a long run (default 0)"
    )
    args = parser.parse_args(argv)
    run(
        max(1, args.games),
        max(0, args.versus),
        args.game or sorted(GAMES),
        out,
        args.players,
        max(1, args.jobs),
        max(0, args.first_seed),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
