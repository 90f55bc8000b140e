"""Random play for any game: seat fill-ins at a table and playout tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from engines.core import Choice, Engine, Result, Seat, Transition


def random_choice(engine: Engine[Any, Any], state: BaseModel, seat: Seat, rng: random.Random) -> Choice:
    """A uniformly random legal choice for ``seat`` (which must have a prompt)."""
    return rng.choice(engine.legal_actions(state, seat))


def playout(
    engine: Engine[Any, Any],
    players: int,
    options: BaseModel | None = None,
    seed: int = 0,
    max_steps: int = 20_000,
    after_step: Callable[[BaseModel, Transition[Any]], None] | None = None,
    in_place: bool = False,
    checked: bool = True,
) -> tuple[BaseModel, Result]:
    """Play a whole game with random legal moves; return the final state and result.

    Every prompted seat is equally likely to move next, so response windows are
    exercised in every order. ``after_step`` sees each transition (invariant checks).
    ``in_place`` skips the copy of the state per step (long runs); the "previous"
    state ``after_step`` is given is then the same object as the new one.
    ``checked`` puts every move through :meth:`Engine.apply`'s full checks, so
    a legal choice the game's own validation refuses shows up; ``False`` trusts
    ``legal_actions`` as the table service does (what benchmarks time).
    Raises ``RuntimeError`` if the game does not end within ``max_steps``.
    """
    rng = random.Random(seed)
    state = engine.setup(players, options if options is not None else engine.parse_options(), seed)
    for _ in range(max_steps):
        result = engine.result(state)
        if result is not None:
            return state, result
        movers = sorted({p.seat for p in engine.prompts(state)})
        options_by_seat = [(s, engine.legal_actions(state, s)) for s in movers]
        options_by_seat = [(s, c) for s, c in options_by_seat if c]
        if not options_by_seat:
            raise RuntimeError("no legal action and no result: the game is stuck")
        seat, choices = rng.choice(options_by_seat)
        choice = rng.choice(choices)
        transition = engine.apply(state, seat, choice.action, in_place=in_place, legal=not checked)
        if after_step is not None:
            after_step(state, transition)
        state = transition.state
    raise RuntimeError(f"game did not end within {max_steps} steps")
