"""Every game declares its moves on the one base in engines/actions.py, and a
move read back from its logged JSON is the same move."""

from __future__ import annotations

import random
import typing
from typing import Any, get_args

import pytest

from engines.actions import Move
from engines.core import Engine, IllegalAction
from engines.registry import GAMES


def _members(engine: Engine[Any, Any]) -> list[type[Move]]:
    union = get_args(engine.action_type)[0]
    return list(get_args(union))


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_move_is_a_move_with_its_own_type(key: str) -> None:
    members = _members(GAMES[key])
    assert members and all(issubclass(m, Move) for m in members)
    names = [typing.get_args(m.model_fields["type"].annotation)[0] for m in members]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_move_with_a_field_it_does_not_have_is_refused(key: str) -> None:
    engine = GAMES[key]
    move = _members(engine)[0]
    name = typing.get_args(move.model_fields["type"].annotation)[0]
    with pytest.raises(IllegalAction, match=r"^That is not a move this game knows"):
        engine.parse_action({"type": name, "no_such_field": 1})
    with pytest.raises(IllegalAction, match=r"^That is not a move this game knows"):
        engine.parse_action({"type": "no-such-move"})


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_logged_move_reads_back_as_the_same_move(key: str) -> None:
    engine = GAMES[key]
    rng = random.Random(7)
    state = engine.setup(engine.info.min_players, engine.parse_options(), 7)
    for _ in range(60):
        if engine.result(state) is not None:
            break
        seats = [s for s in sorted({p.seat for p in engine.prompts(state)}) if engine.legal_actions(state, s)]
        seat = rng.choice(seats)
        for choice in engine.legal_actions(state, seat):
            read = engine.parse_action(choice.action.model_dump(mode="json"))
            assert read == choice.action
            assert read.model_dump_json() == choice.action.model_dump_json()
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).action).state
