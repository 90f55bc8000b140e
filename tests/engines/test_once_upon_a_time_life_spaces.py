"""Rulebook scenarios: setup, exchanges, every space, the START bonus, lost
turns, Chance and Bad Luck cards, questions and va banque."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.once_upon_a_time_life import ENGINE
from engines.once_upon_a_time_life.state import BOX
from engines.once_upon_a_time_life.tokens import Tokens
from tests.engines.test_once_upon_a_time_life_helpers import (
    act,
    answer,
    force_die,
    keys,
    land_on,
    new_game,
    purse,
    texts,
    top,
)


def test_setup_gives_each_player_the_rulebook_tokens_and_their_own_start() -> None:
    state = new_game(4)
    assert all(p == Tokens(globin=3, leukocyte=2, medicine=2) for p in state.purses)
    assert state.bank == Tokens(hemo=30, globin=84 - 12, leukocyte=35 - 8, medicine=35 - 8)
    assert state.systems == [0, 1, 2, 3]
    assert [state.board.kind(p) for p in state.position] == ["start"] * 4
    assert [state.board.system_of(p) for p in state.position] == [0, 1, 2, 3]
    assert len(state.chance) == 45 and len(state.bad_luck) == 45
    assert new_game(2).systems == [0, 2], "two players sit on opposite systems"


def test_the_first_player_is_drawn_by_lot_unless_seat_one_is_asked_to_start() -> None:
    firsts = {ENGINE.setup(4, ENGINE.parse_options(), seed).turn for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert {new_game(4, seed).turn for seed in range(10)} == {0}


def test_exchanges_follow_the_conversion_card_and_are_offered_only_when_affordable() -> None:
    state = new_game()
    assert keys(state, 0) == ["exchange:leukocyte", "exchange:medicine", "roll"]
    purse(state, 0, globin=4, leukocyte=2, medicine=1)
    assert keys(state, 0) == ["exchange:globin", "exchange:leukocyte", "roll"]
    state, _ = act(state, 0, "exchange:globin")
    assert state.purses[0] == Tokens(hemo=1, leukocyte=2, medicine=1)
    state, _ = act(state, 0, "exchange:leukocyte")
    assert state.purses[0] == Tokens(hemo=1, globin=1, medicine=1)
    assert state.turn == 0 and state.stage == "act", "exchanges come before the roll and do not end the turn"
    with pytest.raises(IllegalAction):
        act(state, 0, "exchange:medicine")


@pytest.mark.parametrize(("kind", "gained"), [("leukocyte", "leukocyte"), ("medicine", "medicine")])
def test_leukocyte_and_medicine_spaces_pay_one_token(kind: str, gained: str) -> None:
    state = new_game()
    land_on(state, 0, kind)
    before = state.purses[0].of(gained)  # type: ignore[arg-type]
    state, events = act(state, 0, "roll")
    assert state.purses[0].of(gained) == before + 1  # type: ignore[arg-type]
    assert state.turn == 1 and "lands on" in texts(events)


@pytest.mark.parametrize(
    ("kind", "tokens"), [("virus", ("leukocyte", "globin")), ("bacteria", ("medicine", "globin"))]
)
def test_virus_and_bacteria_spaces_take_a_token_of_the_choice(kind: str, tokens: tuple[str, str]) -> None:
    state = new_game()
    land_on(state, 0, kind)
    state, _ = act(state, 0, "roll")
    assert state.stage == "defend" and keys(state, 0) == [f"defend:{t}" for t in tokens]
    before = state.purses[0].of(tokens[1])  # type: ignore[arg-type]
    state, events = act(state, 0, f"defend:{tokens[1]}")
    assert state.purses[0].of(tokens[1]) == before - 1  # type: ignore[arg-type]
    assert state.turn == 1 and "fends off" in texts(events)


def test_a_virus_takes_the_one_defence_there_is_without_asking() -> None:
    state = new_game()
    purse(state, 0, globin=2)
    land_on(state, 0, "virus")
    state, _ = act(state, 0, "roll")
    assert state.purses[0] == Tokens(globin=1) and state.turn == 1


def test_with_nothing_to_defend_with_the_player_loses_a_turn() -> None:
    state = new_game(3)
    purse(state, 0, medicine=3, hemo=1)  # neither Leukocyte nor Globin against a Virus
    land_on(state, 0, "virus")
    state, events = act(state, 0, "roll")
    assert state.skips[0] == 1 and "loses a turn" in texts(events)
    state = _finish_turn(state, 1)
    state = _finish_turn(state, 2)
    assert state.turn == 1 and state.skips[0] == 0, "seat 0's turn is skipped once"


def _finish_turn(state, seat):  # type: ignore[no-untyped-def]
    """Play ``seat``'s turn to its end with the first offered choice (roll, defend, easy, wrong, stop)."""
    while state.turn == seat and ENGINE.result(state) is None:
        prompt = ENGINE.prompts(state)[0]
        if state.stage == "act":
            state, _ = act(state, prompt.seat, "roll")
        elif state.stage == "answer":
            state, _ = act(state, prompt.seat, "answer:none")
        else:
            state, _ = act(state, prompt.seat, keys(state, prompt.seat)[-1])
    return state


def test_passing_ones_own_start_pays_the_bonus_and_anothers_start_pays_nothing() -> None:
    state = new_game(2)  # seat 0: circulatory (START 0); seat 1: digestive
    size = state.board.size
    state.position[0] = size - 1
    force_die(state, 2)
    before = state.purses[0].model_copy()
    state, events = act(state, 0, "roll")
    assert "passes their own START" in texts(events)
    gained = {k: state.purses[0].of(k) - before.of(k) for k in ("globin", "leukocyte", "medicine")}
    landed = state.board.kind(1)  # the space after START pays its own token on top
    extra = {"globin": 0, "leukocyte": 1 if landed == "leukocyte" else 0, "medicine": 0}
    assert gained == {"globin": 3, "leukocyte": 2 + extra["leukocyte"], "medicine": 2}
    state = _finish_turn(state, 0)
    other_start = state.board.start(1)
    state.position[1] = other_start - 1
    force_die(state, 1)
    state, events = act(state, 1, "roll")
    assert "START" not in texts(events).replace("lands on START", "")
    assert state.purses[1] == Tokens(globin=3, leukocyte=2, medicine=2)


def test_a_chance_card_is_carried_out_and_goes_under_the_deck() -> None:
    state = new_game()
    top(state, "chance", "fresh-fruit")
    card = state.chance[0]
    land_on(state, 0, "chance")
    state, events = act(state, 0, "roll")
    assert state.purses[0].globin == 5 and state.chance[-1] == card
    assert "Fresh fruit" in texts(events)


@pytest.mark.parametrize("design", ["master", "virus"])
def test_master_and_virus_cards_are_kept_secretly(design: str) -> None:
    state = new_game()
    top(state, "chance", design)
    card = state.chance[0]
    land_on(state, 0, "chance")
    state, events = act(state, 0, "roll")
    assert state.hands[0] == [card] and card not in state.chance
    public = [e.text for e in events if e.to is None]
    assert any("keeps it secretly" in t for t in public)
    assert not any(name in t for t in public for name in ("Master", "Virus card"))
    assert any(design.capitalize() in e.text for e in events if e.to == [0])


def test_a_bad_luck_card_sends_to_the_hospital_and_play_resumes_from_the_nearest_start() -> None:
    state = new_game(3)
    top(state, "bad_luck", "sprained-ankle")
    land_on(state, 0, "bad_luck")
    state, _ = act(state, 0, "roll")
    assert state.away[0] == "hospital" and state.skips[0] == 1
    state = _finish_turn(_finish_turn(state, 1), 2)
    assert state.turn == 1, "the lost turn is skipped"
    state = _finish_turn(_finish_turn(state, 1), 2)
    assert state.turn == 0
    force_die(state, 3)
    state, events = act(state, 0, "roll")
    near = state.board.start(state.board.system_index("digestive"))
    assert state.away[0] is None and "sets off from the START" in texts(events)
    assert state.position[0] == near + 3


def test_cards_move_back_and_home_by_the_rules() -> None:
    state = new_game()
    top(state, "bad_luck", "missed-bus")
    land_on(state, 0, "bad_luck")
    at = (state.position[0] + 1) % state.board.size
    state, _ = act(state, 0, "roll")
    assert state.position[0] == at - 3
    state = _finish_turn(state, 1)
    state.turn, state.stage = 0, "act"
    top(state, "chance", "home")
    land_on(state, 0, "chance")
    before = state.purses[0].globin
    state, _ = act(state, 0, "roll")
    assert state.position[0] == state.board.start(0) and state.purses[0].globin == before + 3


def test_question_space_easy_right_then_keep() -> None:
    state = new_game()
    land_on(state, 0, "question")
    state, _ = act(state, 0, "roll")
    assert keys(state, 0) == ["question:easy", "question:hard"]
    state, events = act(state, 0, "question:easy")
    assert state.stage == "answer" and "Easy question for <seat:0>" in texts(events)
    state, events = answer(state, right=True)
    assert state.purses[0].globin == 4 and "correct" in texts(events)
    assert keys(state, 0) == ["vabanque:easy", "vabanque:hard", "stop"]
    state, _ = act(state, 0, "stop")
    assert state.purses[0].globin == 4 and state.turn == 1


def test_a_wrong_answer_earns_nothing_and_ends_the_turn() -> None:
    state = new_game()
    land_on(state, 0, "question")
    state, _ = act(state, 0, "roll")
    state, _ = act(state, 0, "question:hard")
    state, events = answer(state, right=False)
    assert state.purses[0].globin == 3 and state.turn == 1 and "wrong. The answer was" in texts(events)


def test_va_banque_won_adds_and_lost_gives_back_the_first_answers_globin() -> None:
    for right, globin in ((True, 3 + 2 + 1), (False, 3)):
        state = new_game()
        land_on(state, 0, "question")
        state, _ = act(state, 0, "roll")
        state, _ = act(state, 0, "question:hard")
        state, _ = answer(state, right=True)
        state, _ = act(state, 0, "vabanque:easy")
        assert state.question is not None and state.question.purpose == "vabanque"
        state, _ = answer(state, right=right)
        assert state.purses[0].globin == globin
        assert state.turn == 1, "va banque is played once a turn: the turn ends"


def test_questions_do_not_repeat_until_the_deck_is_used_up() -> None:
    state = new_game()
    size = len(state.questions.easy)
    asked = []
    for _ in range(size + 3):
        state.stage = "pick"
        state, _ = act(state, state.turn, "question:easy")
        assert state.question is not None
        asked.append(state.question.number)
        state, _ = act(state, state.turn, "answer:none")
    assert sorted(asked[:size]) == list(range(size))
    assert len(set(asked[size:])) == 3


def test_the_answers_are_shuffled_per_asking_and_the_question_has_its_own_time_limit() -> None:
    orders = set()
    for seed in range(12):
        state = new_game(seed=seed, answer_seconds=45)
        state.stage = "pick"
        state, _ = act(state, 0, "question:easy")
        assert state.question is not None
        orders.add(state.question.correct)
        [prompt] = ENGINE.prompts(state)
        assert prompt.kind == "secret" and prompt.timeout == 45 and prompt.seat == 0
    assert orders == {0, 1, 2, 3}


def test_the_bank_never_pays_what_it_does_not_hold() -> None:
    state = new_game()
    purse(state, 1, leukocyte=BOX.leukocyte - 2)
    assert state.bank.leukocyte == 0
    land_on(state, 0, "leukocyte")
    state, _ = act(state, 0, "roll")
    assert state.purses[0].leukocyte == 2


def test_stopping_on_ones_own_start_pays_the_bonus_too() -> None:
    state = new_game(2)
    state.position[0] = state.board.size - 3
    force_die(state, 3)
    state, events = act(state, 0, "roll")
    assert state.position[0] == state.board.start(0) and "passes their own START" in texts(events)
    assert state.purses[0] == Tokens(globin=6, leukocyte=4, medicine=4) and state.turn == 1
