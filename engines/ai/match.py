"""Whole games between bots and random players, for the benchmark and tests."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.ai.levels import Level
from engines.ai.search import choose
from engines.core import Engine, Result, Seat


@dataclass
class Match:
    result: Result
    # Seconds per searched decision, by the level that made it.
    decisions: dict[str, list[float]] = field(default_factory=dict)


def play_match(
    engine: Engine[Any, Any], players: int, seed: int, bots: Mapping[Seat, Level], max_steps: int = 20_000
) -> Match:
    """One game from ``seed``: seats in ``bots`` search at their level, the
    others move at random. As at a table, a searching seat moves only when the
    game waits for it; a random seat may also make optional plays."""
    rng = random.Random(f"match:{seed}")
    state = engine.setup(players, engine.parse_options(), seed)
    decisions: dict[str, list[float]] = {}
    for step in range(max_steps):
        result = engine.result(state)
        if result is not None:
            return Match(result=result, decisions=decisions)
        prompts = engine.prompts(state)
        movers = sorted({p.seat for p in prompts if p.awaited or p.seat not in bots})
        movers = [s for s in movers if engine.legal_actions(state, s)]
        if not movers:
            raise RuntimeError("no legal action and no result: the game is stuck")
        seat = rng.choice(movers)
        level = bots.get(seat)
        if level is None:
            choice = rng.choice(engine.legal_actions(state, seat))
        else:
            started = time.perf_counter()
            choice = choose(engine, state, seat, level, f"{seed}:{step}")
            decisions.setdefault(level.name, []).append(time.perf_counter() - started)
        state = engine.apply(state, seat, choice.action, in_place=True).state
    raise RuntimeError(f"game did not end within {max_steps} steps")
