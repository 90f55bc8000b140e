"""Seeded random playouts to the end, with conservation of every token and card
checked after every step.

Unmarked: a few seeds per player count (CI). ``pytest -m slow``: 1,000 seeds each.
"""

from __future__ import annotations

import pytest

from engines.once_upon_a_time_life.state import LifeState
from engines.playout import playout
from tests.engines.test_once_upon_a_time_life_helpers import (
    COUNTS,
    ENGINE,
    after_step,
    check_choices,
    check_invariants,
)


def _play(players: int, seed: int, menus: bool = True, **raw: object) -> None:
    def step(state: object, transition: object) -> None:
        after_step(state, transition)  # type: ignore[arg-type]
        if menus:
            check_choices(transition.state)  # type: ignore[attr-defined]

    options = ENGINE.parse_options(raw)
    state, result = playout(ENGINE, players, options, seed=seed, after_step=step, in_place=True)
    assert isinstance(state, LifeState)
    check_invariants(state)
    assert state.winner is not None and state.purses[state.winner].hemo >= state.options.hemo
    assert result.ranking[0] == [state.winner]
    assert sorted(s for group in result.ranking for s in group) == list(range(players))


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("seed", range(3))
def test_playout_checked_every_step(players: int, seed: int) -> None:
    _play(players, seed)


@pytest.mark.parametrize("players", COUNTS)
def test_quick_games_finish(players: int) -> None:
    for seed in range(100, 110):
        _play(players, seed, menus=False, hemo=3)


@pytest.mark.slow
@pytest.mark.parametrize("players", COUNTS)
def test_thousand_playouts(players: int) -> None:
    for seed in range(1000):
        _play(players, seed, menus=seed < 100)


def test_same_seed_same_game() -> None:
    first, _ = playout(ENGINE, 3, seed=7)
    second, _ = playout(ENGINE, 3, seed=7)
    assert first == second
