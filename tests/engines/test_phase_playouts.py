"""Seeded random playouts to the end, with conservation of cards and influence
and a JSON round trip checked after every step.

Unmarked: a sample per player count and deck (CI). ``pytest -m slow``: 1,000 seeds each
(``PHASE_SEEDS=n`` for fewer).
"""

from __future__ import annotations

import os
import random
import tomllib

import pytest

from engines.phase.state import PhState
from engines.playout import playout
from tests.engines.test_phase_helpers import (
    COUNTS,
    CUSTOM,
    DECKS,
    ENGINE,
    after_step,
    check_choices,
    check_invariants,
    deck_options,
    take,
)


def _play(players: int, deck: str, seed: int, checked: bool = True, **raw: object) -> PhState:
    def step(state: object, transition: object) -> None:
        after_step(state, transition)  # type: ignore[arg-type]
        check_choices(transition.state)  # type: ignore[attr-defined]

    state, result = playout(
        ENGINE,
        players,
        deck_options(deck, **raw),
        seed=seed,
        after_step=step if checked else None,
        in_place=not checked,
    )
    assert isinstance(state, PhState)
    check_invariants(state)
    limit = state.options.round_limit
    assert state.ending or (limit is not None and state.round_no >= limit)
    assert state.turn == state.last_seat(), "the game ends after the last player's turn"
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    return state


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("seed", range(2))
def test_playout_checked_every_step(players: int, deck: str, seed: int) -> None:
    _play(players, deck, seed, influence=4, deck_size=20)


@pytest.mark.parametrize("players", COUNTS)
def test_full_games_finish(players: int) -> None:
    for seed in range(100, 102):
        _play(players, "builtin", seed, checked=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("deck", DECKS)
def test_thousand_playouts(players: int, deck: str) -> None:
    for seed in range(int(os.environ.get("PHASE_SEEDS", "1000"))):
        _play(players, deck, seed)


def _storming(players: int, seed: int) -> PhState:
    """A game whose players attack whenever they can, sending every warrior at the
    Nexus, and otherwise move at random."""
    rng = random.Random(seed)
    state = ENGINE.setup(players, ENGINE.parse_options(), seed)
    while ENGINE.result(state) is None:
        seat = rng.choice(sorted({p.seat for p in ENGINE.prompts(state)}))
        found = ENGINE.legal_actions(state, seat)
        eager = [
            c
            for c in found
            if c.key != "no-attack" and not (c.key.startswith("send:") and not c.key.endswith(":nexus"))
        ]
        state = ENGINE.apply(state, seat, rng.choice(eager or found).action, in_place=True, legal=False).state
    return state


@pytest.mark.parametrize("players", COUNTS)
def test_players_who_storm_the_nexus_empty_a_pool_in_a_few_rounds(players: int) -> None:
    """The rulebook's only end, an empty Nexus pool, with no round limit (RULES.md,
    decision 17): attacks on the Nexus alone empty a pool, in about 11 rounds."""
    for seed in range(3):
        state = _storming(players, seed)
        assert state.options.round_limit is None
        assert 0 in state.nexus, "a pool emptied"
        assert state.round_no <= 20, state.round_no


def test_same_seed_same_game() -> None:
    first, _ = playout(ENGINE, 3, seed=7)
    second, _ = playout(ENGINE, 3, seed=7)
    assert first == second


def test_long_titles_keep_every_label_within_a_button() -> None:
    long = CUSTOM.replace('"Twin"', '"Twin of the Long Winding Way"')
    raw = {"deck": tomllib.loads(long), "deck_size": 16, "factions": ["keeper", "fengarian"]}
    state = ENGINE.setup(2, ENGINE.parse_options(raw), 1)
    state.picks, state.step = [0, 0], "training"
    state.decks[0] += state.hands[0]
    state.hands[0] = []
    twins = [c for c in state.decks[0] + state.hands[0] if state.cards[c] in ("twin-a", "twin-b")]
    for card in twins[:2]:
        take(state, card)
        state.face[card] = 0
        state.play[1].append(card)
    order = twins[2]
    take(state, order)
    state.face[order] = 1  # its Twin side faces its player
    state.hands[0].append(order)
    state.turn = 0
    state = ENGINE.apply(state, 0, ENGINE.choice(state, 0, f"order:{order}").action).state
    labels = [c.label for c in ENGINE.legal_actions(state, 0)]
    assert any(label.endswith("…") for label in labels), labels
    check_choices(state)
