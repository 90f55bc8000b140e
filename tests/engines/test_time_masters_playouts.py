"""Seeded random playouts to the end, with every invariant checked after every step.

Unmarked: a few seeds per player count (CI). ``pytest -m slow``: 1,000 seeds each.
"""

from __future__ import annotations

import pytest

from engines.playout import playout
from engines.time_masters.state import TmState
from tests.engines.test_time_masters_helpers import (
    COUNTS,
    ENGINE,
    after_step,
    check_choices,
    check_invariants,
    options,
)


def _play(players: int, seed: int, checked: bool = True) -> None:
    def step(state: object, transition: object) -> None:
        after_step(state, transition)  # type: ignore[arg-type]
        check_choices(transition.state)  # type: ignore[attr-defined]

    state, result = playout(ENGINE, players, seed=seed, after_step=step if checked else None)
    assert isinstance(state, TmState)
    check_invariants(state)
    assert state.empty_spheres() >= 2, "the game ends only when two spheres are empty"
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    assert result.scores == {s: float(state.knowledge(s)) for s in range(players)}


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("seed", range(4))
def test_playout_checked_every_step(players: int, seed: int) -> None:
    _play(players, seed)


@pytest.mark.parametrize("players", COUNTS)
def test_playouts_finish(players: int) -> None:
    for seed in range(100, 130):
        _play(players, seed, checked=False)


@pytest.mark.parametrize("players", COUNTS)
def test_playouts_with_one_timer_at_most_finish(players: int) -> None:
    # Decision 3: a hand of timers that cannot be set is discarded, never stuck.
    for seed in range(10):
        state, _ = playout(ENGINE, players, options=options(max_timers=1), seed=seed, after_step=after_step)
        check_invariants(state)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("players", COUNTS)
def test_thousand_playouts(players: int) -> None:
    for seed in range(1000):
        _play(players, seed)


def test_same_seed_same_game() -> None:
    first, _ = playout(ENGINE, 3, seed=7)
    second, _ = playout(ENGINE, 3, seed=7)
    assert first == second
