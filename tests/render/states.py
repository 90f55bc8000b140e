"""Fixed, seeded game states for the picture tests: a game played a set number
of random legal moves from a set seed, so every run draws the same picture."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from engines.core import Engine
from engines.registry import get_engine

NAMES = ("Alice", "Bob", "Carmen", "Dmitri", "Ebo", "Fumiko")


def played(game: str, players: int, seed: int, moves: int) -> tuple[Engine[Any, Any], BaseModel]:
    """``game`` set up for ``players`` with ``seed``, then ``moves`` random legal moves
    (fewer if it ends first)."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    for _ in range(moves):
        if engine.result(state) is not None:
            break
        movers = sorted({p.seat for p in engine.prompts(state)})
        options = [(s, c) for s in movers if (c := engine.legal_actions(state, s))]
        seat, choices = rng.choice(options)
        state = engine.apply(state, seat, rng.choice(choices).action).state
    return engine, state
