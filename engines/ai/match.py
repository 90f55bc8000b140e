"""Whole games between bots and random players, for the benchmark and tests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.ai.levels import Level
from engines.ai.search import choose, consider, optional_seats
from engines.core import Choice, Engine, Result, Seat


@dataclass
class Match:
    result: Result
    # Seconds per searched decision, by the level that made it; a searching
    # seat's weighing of its optional plays goes under "<level> optional".
    decisions: dict[str, list[float]] = field(default_factory=dict)
    # Optional plays the searching seats made outside their turn.
    optional_plays: int = 0
    # The state the game ended in (its length, for the balance benchmark).
    state: Any = None


def play_match(
    engine: Engine[Any, Any],
    players: int,
    seed: int,
    bots: Mapping[Seat, Level],
    max_steps: int = 20_000,
    options: Mapping[str, Any] | None = None,
    watch: Callable[[Any, Seat, Choice], None] | None = None,
) -> Match:
    """One game from ``seed``: seats in ``bots`` search at their level, the
    others move at random. Each searching seat plays as a table plays a bot
    among people (see ``TableService._advance``): after every change, while
    the game waits on someone else, each searching seat with an optional play
    weighs it once; then the seat waited for moves (a searching seat by its
    search, any other at random, as a person would). So in a game of bots
    alone every bot still meets each moment it could play out of turn, as it
    does at a table where the others are people.
    ``watch`` sees the state, the seat and its choice before each move is made
    (the balance benchmark's count of what was offered and chosen)."""
    rng = random.Random(f"match:{seed}")
    state = engine.setup(players, engine.parse_options(options), seed)
    decisions: dict[str, list[float]] = {}
    considered: set[Seat] = set()
    made = 0
    for step in range(max_steps):
        result = engine.result(state)
        if result is not None:
            return Match(result=result, decisions=decisions, optional_plays=made, state=state)
        prompts = engine.prompts(state)
        searching = [p.seat for p in prompts if p.awaited and p.seat in bots]
        optional = [s for s in optional_seats(engine, state) if s in bots and s not in considered]
        if optional or searching:
            # The optional plays first: a bot waited for would otherwise move at
            # once, and in a game of bots alone nobody would ever play out of turn.
            seat = (optional or searching)[0]
            level = bots[seat]
            started = time.perf_counter()
            if not optional:
                # As at a table (bot.service.bots.bot_move): the game's own pick first (a
                # quiz answered with the table's odds), then the search.
                policy = engine.bot_policy(state, seat, level.name, random.Random(f"{seed}:{step}"))
                chosen: Choice | None = policy or choose(engine, state, seat, level, f"{seed}:{step}")
                kind: str = level.name
            else:
                considered.add(seat)
                chosen = consider(engine, state, seat, level, f"{seed}:{step}")
                kind = f"{level.name} optional"
                made += chosen is not None
            decisions.setdefault(kind, []).append(time.perf_counter() - started)
            if chosen is not None:
                if watch is not None:
                    watch(state, seat, chosen)
                state = engine.apply(state, seat, chosen.action, in_place=True).state
                if not chosen.idle:  # a change: every bot may weigh its optional plays again
                    considered.clear()
            continue
        movers = sorted({p.seat for p in prompts if p.seat not in bots})
        movers = [s for s in movers if engine.legal_actions(state, s)]
        if not movers:
            raise RuntimeError("no legal action and no result: the game is stuck")
        seat = rng.choice(movers)
        move = rng.choice(engine.legal_actions(state, seat))
        if watch is not None:
            watch(state, seat, move)
        state = engine.apply(state, seat, move.action, in_place=True).state
        if not move.idle:  # as at a table: an idle move gives the bots nothing new to weigh
            considered.clear()
    raise Unfinished(f"game did not end within {max_steps} steps")


class Unfinished(RuntimeError):
    """A match that did not end within its bound of moves."""
