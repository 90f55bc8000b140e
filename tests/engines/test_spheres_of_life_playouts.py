"""Seeded random playouts to the end, with invariants checked after every step.

CI runs a few seeds per variant with every check (conservation, choice limits,
default actions, view hiding). The full run — 1,000 seeds per player count 2–7 per
variant, card conservation after every step (and the menu checks on every step of the
first 100 seeds) — is ``pytest -m slow``; tables
of more than seven (several decks) get a tenth of that, since one such game costs
as much as dozens of small ones.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from engines.core import Transition
from engines.playout import playout
from engines.spheres_of_life import ENGINE, SolState
from tests.engines.test_spheres_of_life_helpers import (
    VARIANTS,
    assert_conserved,
    check_choices,
    full_check,
    light_check,
    options,
)

# SOL_SEEDS lets one run a sample of the full run (e.g. SOL_SEEDS=100 pytest -m slow).
FULL_SEEDS = int(os.environ.get("SOL_SEEDS", "1000"))
BIG_TABLE_SEEDS = max(1, FULL_SEEDS // 10)


def _counts(variant: str) -> list[int]:
    low, high = ENGINE.seat_range(options(**VARIANTS[variant]))
    return list(range(low, high + 1))


def _ci_cases() -> list[tuple[str, int, int]]:
    """Each variant at its fewest and most players (a big table at nine, to keep CI quick)."""
    cases = []
    for variant in VARIANTS:
        counts = [n for n in _counts(variant) if n <= 9]
        cases += [(variant, n, 100 + n) for n in sorted({counts[0], counts[-1]})]
    return cases


def _finished(state: Any, result: Any, players: int) -> None:
    assert isinstance(state, SolState) and state.stage == "over"
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    assert_conserved(state)


@pytest.mark.parametrize("variant, players, seed", _ci_cases())
def test_playout_with_every_check(variant: str, players: int, seed: int) -> None:
    check = full_check if players <= 7 else _step_check
    state, result = playout(
        ENGINE, players, options(**VARIANTS[variant]), seed=seed, after_step=check, max_steps=60_000
    )
    _finished(state, result, players)


def _step_check(previous: Any, transition: Transition[Any]) -> None:
    light_check(previous, transition)
    if ENGINE.result(transition.state) is None:
        check_choices(transition.state)


def _all_cases() -> list[tuple[str, int]]:
    return [(variant, n) for variant in VARIANTS for n in _counts(variant)]


@pytest.mark.slow
@pytest.mark.parametrize("variant, players", _all_cases())
def test_full_playouts(variant: str, players: int) -> None:
    opts = options(**VARIANTS[variant])
    for seed in range(FULL_SEEDS if players <= 7 else BIG_TABLE_SEEDS):
        # Conservation after every step of every game; the menu checks (which double
        # the cost of a step) on every step of the first hundred games.
        check = _step_check if seed < 100 else light_check
        state, result = playout(
            ENGINE, players, opts, seed=seed, after_step=check, max_steps=60_000, in_place=True
        )
        _finished(state, result, players)
