"""Seeded random playouts to the end, with every invariant checked after every step.

Unmarked: a few seeds per player count and variant (CI). ``pytest -m slow``: 1,000 seeds each
(SOI_SEEDS runs a sample of it, e.g. SOI_SEEDS=100 pytest -m slow).
"""

from __future__ import annotations

import os

import pytest

from engines.playout import playout
from tests.engines.test_scales_of_influence_helpers import (
    COUNTS_AND_VARIANTS,
    ENGINE,
    after_step,
    check_choices,
    check_invariants,
    options,
)


def _play(players: int, variant: str, seed: int, checked: bool = True, in_place: bool = False) -> None:
    opts = options(variant=variant)
    check = after_step if checked else None
    state, result = playout(ENGINE, players, opts, seed=seed, after_step=check, in_place=in_place)
    check_invariants(state)  # type: ignore[arg-type]
    assert result.teams is not None and sorted(s for t in result.teams.values() for s in t) == list(
        range(players)
    )
    assert result.ranking and result.winners
    view = ENGINE.view(state, None)  # type: ignore[arg-type]
    assert view.alignments is not None  # the end reveals every alignment


@pytest.mark.parametrize(("players", "variant"), COUNTS_AND_VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_playout_checked_every_step(players: int, variant: str, seed: int) -> None:
    _play(players, variant, seed)


@pytest.mark.parametrize(("players", "variant"), COUNTS_AND_VARIANTS)
def test_playouts_finish(players: int, variant: str) -> None:
    for seed in range(100, 112):
        _play(players, variant, seed, checked=False)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant"), COUNTS_AND_VARIANTS)
def test_thousand_playouts(players: int, variant: str) -> None:
    for seed in range(int(os.environ.get("SOI_SEEDS", "1000"))):
        _play(players, variant, seed, in_place=True)  # the checks never look at the previous state


def test_same_seed_same_game() -> None:
    first, _ = playout(ENGINE, 5, options(), seed=7)
    second, _ = playout(ENGINE, 5, options(), seed=7)
    assert first == second


def test_fresh_game_is_sound() -> None:
    for players, variant in COUNTS_AND_VARIANTS:
        state = ENGINE.setup(players, options(variant=variant), 3)
        check_invariants(state)
        check_choices(state)
