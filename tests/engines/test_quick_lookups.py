"""The quick ways a move, a save and a bot read the game — ``Engine.choice``
for the one choice a click names, ``Engine.headline`` for the table lists,
``Engine.moves`` for a search, ``sampling.copy_state`` for its samples — say exactly what the full ones
(``legal_actions``, ``view(state, None)``, ``model_copy(deep=True)``) say, all through a game played to
its end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from engines import GAMES
from engines.card_data import CardData
from engines.core import Engine, IllegalAction
from engines.sampling import copy_state


def _played_states(engine: Engine[Any, Any], players: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    states = [state]
    for _ in range(3000):
        if engine.result(state) is not None:
            break
        movers = [(p.seat, engine.legal_actions(state, p.seat)) for p in engine.prompts(state)]
        movable = [(s, [c for c in found if not c.idle] or found) for s, found in movers if found]
        if not movable:
            break
        seat, choices = rng.choice(movable)
        state = engine.apply(state, seat, rng.choice(choices).action, legal=True).state
        states.append(state)
    return states


@pytest.mark.parametrize("key", sorted(GAMES))
def test_choice_and_headline_agree_with_the_full_answers(key: str) -> None:
    engine = GAMES[key]
    low, high = engine.seat_range(engine.parse_options())
    checked_choices = 0
    for players, seed in ((low, 1), (high, 2)):
        states = _played_states(engine, players, seed)
        assert engine.result(states[-1]) is not None, "the playout should reach the end"
        for state in [*states[:: max(1, len(states) // 60)], states[-1]]:
            assert engine.headline(state) == engine.view(state, None).headline
            for seat in range(players):
                for option in engine.legal_actions(state, seat):
                    assert engine.choice(state, seat, option.key) == option
                    checked_choices += 1
                with pytest.raises(IllegalAction):
                    engine.choice(state, seat, "no-such-move")
    assert checked_choices > 100


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_searchs_moves_are_the_legal_actions_without_their_words(key: str) -> None:
    """At every step of a game, for every seat: the same keys, actions and idle
    flags in the same order, so a search walks exactly the moves it walked
    when it read ``legal_actions`` (and makes the same decisions)."""
    engine = GAMES[key]
    low, high = engine.seat_range(engine.parse_options())
    compared = 0
    kinds: set[str] = set()
    for players, seed in ((low, 3), (high, 4)):
        states = _played_states(engine, players, seed)
        assert engine.result(states[-1]) is not None, "the playout should reach the end"
        for state in states:
            for seat in range(players):
                full = engine.legal_actions(state, seat)
                bare = engine.moves(state, seat)
                assert [(c.key, c.action, c.idle) for c in bare] == [(c.key, c.action, c.idle) for c in full]
                compared += len(full)
                kinds.update(c.key.split(":")[0] for c in full)
    assert compared > 1000
    assert len(kinds) >= 5, f"too few kinds of move met to compare: {sorted(kinds)}"


def _containers(value: Any, found: dict[int, Any]) -> dict[int, Any]:
    """Every list, dict and model reachable from ``value`` (a deck, never
    changed in a game, left out), by id."""
    if isinstance(value, CardData) or id(value) in found:
        return found
    if isinstance(value, BaseModel):
        found[id(value)] = value
        for item in value.__dict__.values():
            _containers(item, found)
    elif isinstance(value, (list, dict)):
        found[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    return found


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_samples_copy_equals_a_deep_copy_and_shares_nothing_that_changes(key: str) -> None:
    engine = GAMES[key]
    low, high = engine.seat_range(engine.parse_options())
    for players, seed in ((low, 5), (high, 6)):
        states = _played_states(engine, players, seed)
        for state in states[:: max(1, len(states) // 40)]:
            copied = copy_state(state)
            assert copied == state.model_copy(deep=True)
            assert copied.model_dump_json() == state.model_dump_json()
            assert not _containers(copied, {}).keys() & _containers(state, {}).keys()
