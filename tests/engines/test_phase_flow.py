"""Setup, the turn's steps, action rounds and the end of the game."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.phase import ENGINE, effects, moves
from engines.phase.actions import Attack, Cancel, Done, Pass, Pick
from engines.phase.state import Mod, PhState
from tests.engines.test_phase_helpers import act, check_invariants, keys, new_game, put, table, texts


def test_setup_fills_the_nexus_and_deals_three_cards_then_a_secret_pick() -> None:
    state = new_game(3, seed=2)
    assert state.nexus == [30, 30] and all(len(h) == 3 for h in state.hands)
    assert len({*state.factions}) == 3, "three players, three factions"
    prompts = ENGINE.prompts(state)
    assert [(p.seat, p.kind) for p in prompts] == [(0, "secret"), (1, "secret"), (2, "secret")]
    card = state.hands[1][0]
    inner = state.side(card, flipped=True).title
    state, events = act(state, 1, f"pick:{card}")
    public = texts(events)
    assert inner not in public and "has chosen" in public, "the pick stays secret until all have chosen"
    assert [p.seat for p in ENGINE.prompts(state)] == [0, 2]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, ENGINE.legal_actions(state, 0)[0].action)
    state, _ = act(state, 0, f"pick:{state.hands[0][0]}")
    state, events = act(state, 2, f"pick:{state.hands[2][0]}")
    assert state.barracks[1][0] == card and state.name(card) == inner, "the side its player saw goes up"
    assert "The barracks are revealed" in texts(events)
    assert state.step != "pick" and len(state.hands[state.first]) == 3, "the first player drew in Preparation"
    assert len(state.barracks[state.first]) == 2, "and enlisted"
    check_invariants(state)


def test_the_lowest_training_cost_on_a_deck_top_goes_first_ties_cut_again() -> None:
    for seed in range(30):
        state = new_game(2, seed=seed)
        tops = [moves.top_cost(state, s) for s in range(2)]
        for seat in range(2):
            state, events = act(state, seat, f"pick:{state.hands[seat][0]}")
        said = texts(events)
        if tops[0] != tops[1]:
            assert state.first == tops.index(min(tops)) and "cut" not in said
        else:
            assert "cut their decks" in said


def test_an_action_round_goes_clockwise_until_everyone_passes_in_a_row() -> None:
    state = table(3)
    state.step = "attack"
    put(state, 0, "play", "Gladiator")
    spirit = put(state, 1, "hands", "Fire Spirit")
    state, _ = act(state, 0, "attack")
    assert state.round is not None and state.round.seat == 0, "the active player has the first opportunity"
    assert ENGINE.prompts(state)[0].kind == "response"
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, f"order:{spirit}")
    state, _ = act(state, 1, keys(state, 1)[0])
    assert state.round.seat == 2 and state.round.passes == 0
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 0, "pass")
    assert state.round is not None and state.round.seat == 1, "the one who acted is asked again"
    state, _ = act(state, 1, "pass")
    assert state.step == "attackers" and state.round is None


def test_every_player_is_asked_in_a_round_whatever_they_hold() -> None:
    state = table(2)
    state, _ = act(state, 0, "done")
    assert state.step == "closing" and keys(state, 0) == ["pass"]
    state, _ = act(state, 0, "pass")
    assert [p.seat for p in ENGINE.prompts(state)] == [1] and keys(state, 1) == ["pass"]


def test_temporary_effects_end_with_the_turn() -> None:
    state = table()
    horror = put(state, 0, "play", "Chained Horror")
    state.mods[horror], state.damage[horror], state.granted[horror] = Mod(a=2), 1, ["swift"]
    state, _ = act(state, 0, "done")
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    assert state.turn == 1 and state.mods == {} and state.damage == {} and state.granted == {}


def test_without_warriors_the_attack_step_is_skipped() -> None:
    state = table()
    state, _ = act(state, 0, "done")
    state, _ = act(state, 0, "pass")
    state, events = act(state, 1, "pass")
    assert state.turn == 1 and state.step == "training" and "Training step" in texts(events)


def test_an_empty_deck_is_formed_again_from_the_shuffled_discard_pile() -> None:
    state = table()
    state.discards[0], state.decks[0] = state.decks[0], []
    effects.draw(state, 0)
    assert state.discards[0] == [] and len(state.hands[0]) == 1
    check_invariants(state)


def _end_turn(state: PhState) -> None:
    state.round = None
    moves.end_turn(state)


def test_play_goes_on_until_the_last_player_finishes_once_a_pool_empties() -> None:
    state = table(3)
    state.first = 1  # the last player is seat 0
    state.turn = 1
    state.nexus = [0, 30]
    state.influence[1][0] = 30
    _end_turn(state)
    assert state.ending and state.step != "over" and state.turn == 2
    _end_turn(state)
    assert state.turn == 0 and state.step != "over"
    _end_turn(state)
    assert state.step == "over" and ENGINE.result(state) is not None


def test_the_round_limit_ends_the_game_after_the_last_player() -> None:
    state = table(2, round_limit=5)
    state.round_no = 5
    _end_turn(state)
    assert state.step != "over"
    _end_turn(state)
    assert state.step == "over"


@pytest.mark.parametrize(
    ("influence", "armies", "ranking"),
    [
        ([[5, 1], [3, 4], [0, 0]], [[], [], []], [[0], [1], [2]]),  # most of a single kind
        ([[5, 1], [5, 3], [0, 0]], [[], [], []], [[1], [0], [2]]),  # tie: most in total
        ([[5, 1], [5, 1], [0, 0]], [["Ted"], ["Pennaggolan"], []], [[1], [0], [2]]),  # then attack
        ([[5, 1], [5, 1], [1, 0]], [["Ted"], ["Ted"], []], [[0, 1], [2]]),  # all tied win
    ],
)
def test_the_winner_and_every_tie_break(
    influence: list[list[int]], armies: list[list[str]], ranking: list[list[int]]
) -> None:
    state = table(3)
    state.influence = influence
    state.nexus = [30 - sum(i[0] for i in influence), 30 - sum(i[1] for i in influence)]
    for seat, titles in enumerate(armies):
        for title in titles:
            put(state, seat, "play", title)
    state.step = "over"
    result = ENGINE.result(state)
    assert result is not None and result.ranking == ranking


def test_a_late_seat_passes_cancels_and_does_not_attack() -> None:
    state = new_game(2, seed=3)
    assert isinstance(ENGINE.default_action(state, 1), Pick)
    state = table()
    state.step = "attack"
    gladiator = put(state, 0, "play", "Gladiator")
    assert ENGINE.default_action(state, 0) == Attack(attack=False)
    state, _ = act(state, 0, "attack")
    assert ENGINE.default_action(state, 0) == Pass()
    for title in ("Ted", "Scout", "Trivet"):
        put(state, 0, "barracks", title)
    state, _ = act(state, 0, f"skill:{gladiator}")
    assert ENGINE.default_action(state, 0) == Cancel()
    state, _ = act(state, 0, "cancel")
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    put(state, 1, "play", "Sister Alexis")
    state, _ = act(state, 0, f"send:{gladiator}:nexus")
    state, _ = act(state, 0, "done")
    assert ENGINE.default_action(state, 1) == Done()
