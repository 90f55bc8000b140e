"""Decision 2: "They choose a pawn they want to play and place it on the START
space in the corresponding body system" — from "8 pawns to choose from",
"assigned by colour to specific body systems"; in turn order, in public,
before the first roll."""

from __future__ import annotations

import random

import pytest

from engines.core import IllegalAction
from engines.once_upon_a_time_life import ENGINE
from engines.once_upon_a_time_life.actions import ChoosePawn, Roll
from tests.engines.test_once_upon_a_time_life_helpers import check_choices, check_invariants, keys, new_game


def _choose(state: object, seat: int, pawn: str) -> tuple[object, list[str]]:
    transition = ENGINE.apply(state, seat, ChoosePawn(pawn=pawn))  # type: ignore[arg-type]
    return transition.state, [e.text for e in transition.events]


def test_the_box_has_eight_pawns_two_for_each_body_system() -> None:
    board = new_game(2, pawns=False).board
    assert len(board.pawn) == 8 and len({p.id for p in board.pawn}) == 8
    assert sorted(p.system for p in board.pawn) == sorted(s.id for s in board.system for _ in range(2))


def test_the_first_player_chooses_first_then_each_in_turn_order_before_the_first_roll() -> None:
    state = ENGINE.setup(3, ENGINE.parse_options(), 5)
    first = state.turn
    assert state.stage == "pawn"
    order = []
    for _ in range(3):
        assert [p.seat for p in ENGINE.prompts(state)] == [state.turn]
        assert all(not keys(state, s) for s in range(3) if s != state.turn)
        assert "roll" not in keys(state, state.turn)
        order.append(state.turn)
        state, _ = _choose(state, state.turn, ENGINE.legal_actions(state, state.turn)[0].action.pawn)
        check_invariants(state)  # type: ignore[arg-type]
    assert order == [first, (first + 1) % 3, (first + 2) % 3]
    assert state.stage == "act" and state.turn == first and state.turn_no == 1  # type: ignore[attr-defined]
    assert "roll" in keys(state, first)  # type: ignore[arg-type]


def test_a_chosen_pawn_sets_off_from_its_systems_start_and_is_gone_for_the_others() -> None:
    state = new_game(2, pawns=False)
    assert len(keys(state, 0)) == 8
    state, said = _choose(state, 0, "green")
    board = state.board  # type: ignore[attr-defined]
    digestive = board.system_index("digestive")
    assert state.systems[0] == digestive and state.position[0] == board.start(digestive)  # type: ignore[attr-defined]
    assert said == ["<seat:0> chooses the Green pawn and sets it on the START of the Digestive system."]
    assert "pawn:green" not in keys(state, 1) and len(keys(state, 1)) == 7  # type: ignore[arg-type]
    # Its twin of the same colour family, the same system, is still free: the rulebook bars only a taken pawn.
    state, said = _choose(state, 1, "brown")
    assert state.systems[1] == digestive and state.position[1] == board.start(digestive)  # type: ignore[attr-defined]
    assert said[-1] == "Every pawn is on its START: <seat:0> rolls first."


def test_a_taken_or_unknown_pawn_is_refused_in_a_sentence_and_changes_nothing() -> None:
    state = new_game(2, pawns=False)
    state, _ = _choose(state, 0, "red")
    before = ENGINE.dump_state(state)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=r"taken|not a legal"):
        ENGINE.apply(state, 1, ChoosePawn(pawn="red"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=r"^The Red pawn is taken: choose another\.$"):
        ENGINE.validate(state, 1, ChoosePawn(pawn="red"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="no such pawn"):
        ENGINE.validate(state, 1, ChoosePawn(pawn="silver"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, Roll())  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, ChoosePawn(pawn="blue"))  # type: ignore[arg-type]
    assert ENGINE.dump_state(state) == before  # type: ignore[arg-type]


def test_a_late_seat_is_given_a_pawn_of_a_system_nobody_plays() -> None:
    state = new_game(4, pawns=False)
    systems = []
    while state.stage == "pawn":
        action = ENGINE.default_action(state, state.turn)
        assert isinstance(action, ChoosePawn)
        state = ENGINE.apply(state, state.turn, action).state
        systems.append(state.systems[(state.turn - 1) % 4])
    assert sorted(systems) == [0, 1, 2, 3]


def test_the_table_sees_who_chose_which_pawn_and_the_free_ones() -> None:
    state = new_game(2, pawns=False)
    state, _ = _choose(state, 0, "yellow")
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)  # type: ignore[arg-type]
        assert view.headline == "Choosing pawns — <seat:1> to choose"
        assert view.seats[0].pawn is not None and view.seats[0].pawn.name == "Yellow"
        assert view.seats[0].system == "Nervous system" and view.seats[0].position is not None
        assert view.seats[1].pawn is None and view.seats[1].position is None and view.seats[1].system == ""
        free = ["red", "purple", "blue", "black", "green", "brown", "orange"]
        assert [p.id for p in view.free_pawns] == free
    state, _ = _choose(state, 1, "black")
    assert ENGINE.view(state, None).free_pawns == []  # type: ignore[arg-type]


def test_moves_and_legal_actions_agree_and_menus_are_well_formed_while_choosing() -> None:
    state = new_game(3, pawns=False)
    while state.stage == "pawn":
        check_choices(state)
        assert [c.key for c in ENGINE.moves(state, state.turn)] == keys(state, state.turn)
        state = ENGINE.apply(state, state.turn, ENGINE.legal_actions(state, state.turn)[-1].action).state


def test_determinize_keeps_the_chosen_pawns() -> None:
    state = new_game(2, pawns=False)
    state, _ = _choose(state, 0, "blue")
    world = ENGINE.determinize(state, 1, random.Random(3))  # type: ignore[arg-type]
    assert world.pawns == state.pawns and world.stage == "pawn"  # type: ignore[attr-defined]


def test_a_game_saved_before_pawns_were_chosen_loads_with_its_systems_pawns() -> None:
    state = new_game(2)
    data = state.model_dump(mode="json")
    del data["pawns"]
    loaded = ENGINE.load_state(data)
    assert loaded.pawns == ["red", "green"] and loaded.systems == state.systems
