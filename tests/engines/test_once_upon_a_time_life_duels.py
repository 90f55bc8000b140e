"""Rulebook scenarios: Master duels, Virus attacks, Master cards cancelling
and repelling them, conversion when short and giving everything, the 7-Hemo
end and the ranking, time-outs and the bots' odds."""

from __future__ import annotations

import random

import pytest

from engines.core import IllegalAction
from engines.once_upon_a_time_life import ENGINE
from engines.once_upon_a_time_life.actions import Answer, Respond, Roll, Spoils
from engines.once_upon_a_time_life.tokens import Tokens
from tests.engines.test_once_upon_a_time_life_helpers import (
    act,
    answer,
    keep,
    keys,
    new_game,
    purse,
    texts,
)


def test_duels_and_attacks_are_offered_only_with_the_card_and_never_against_an_additional_space() -> None:
    state = new_game(3)
    assert not [k for k in keys(state, 0) if k.startswith(("duel", "virus"))]
    keep(state, 0, "master")
    keep(state, 0, "virus")
    state.away[2] = "park"
    found = keys(state, 0)
    assert [k for k in found if k.startswith("duel")] == ["duel:1:easy", "duel:1:hard"]
    assert [k for k in found if k.startswith("virus")] == ["virus:1", "virus:2"]


def test_the_target_always_gets_the_same_window_whether_or_not_it_holds_a_master() -> None:
    seen = []
    for holds in (False, True):
        state = new_game(3)
        keep(state, 0, "master")
        if holds:
            keep(state, 1, "master")
        state, events = act(state, 0, "duel:1:easy")
        seen.append(([(p.seat, p.kind, p.text, p.timeout) for p in ENGINE.prompts(state)], texts(events)))
        assert keys(state, 1) == (["accept", "master"] if holds else ["accept"])
    assert seen[0] == seen[1]


def _duel(level: str = "easy") -> object:
    state = new_game(2)
    keep(state, 0, "master")
    state, _ = act(state, 0, f"duel:1:{level}")
    state, _ = act(state, 1, "accept")
    return state


def test_a_duel_without_counterattack_goes_to_the_challenger() -> None:
    state = _duel()
    assert state.question is not None and state.question.answerer == 1  # type: ignore[attr-defined]
    state, _ = answer(state, right=False)  # type: ignore[arg-type]
    assert state.stage == "spoils" and ENGINE.prompts(state)[0].seat == 0
    state, _ = act(state, 0, "take:globin")
    # 3 Globin and 2 Leukocyte → 1 Globin make the 4.
    assert state.purses[0].globin == 7 and state.purses[1] == Tokens(medicine=2)
    assert state.stage == "act" and state.turn == 0, "the duel comes before the roll; the turn goes on"
    assert state.chance[-1] not in state.hands[0] and state.card("chance", state.chance[-1]).keep == "master"


def test_a_counterattack_asks_the_challenger_from_the_same_deck_and_a_wrong_answer_loses() -> None:
    state = _duel("hard")
    state, _ = answer(state, right=True)  # type: ignore[arg-type]
    assert state.question is not None and state.question.answerer == 0
    assert state.question.level == "hard" and state.question.purpose == "counter"
    state, _ = answer(state, right=False)
    assert ENGINE.prompts(state)[0].seat == 1
    purse(state, 0, hemo=2, globin=1)
    state, _ = act(state, 1, "take:hemo")
    assert state.purses[1].hemo == 1 and state.purses[0] == Tokens(hemo=1, globin=1)


def test_two_right_answers_leave_it_to_two_rolls_of_the_die_each() -> None:
    state = _duel()
    state, _ = answer(state, right=True)  # type: ignore[arg-type]
    state, events = answer(state, right=True)
    assert "two rolls of the die each" in texts(events)
    assert state.challenge is not None and state.challenge.dice
    last = state.challenge.dice[-1]
    winner = 0 if last[0] + last[1] > last[2] + last[3] else 1
    assert state.challenge.winner == winner and ENGINE.prompts(state)[0].seat == winner
    assert all(d[0] + d[1] == d[2] + d[3] for d in state.challenge.dice[:-1]), "only ties roll again"


def test_a_master_cancels_a_duel_and_both_cards_go_under_the_chance_deck() -> None:
    state = new_game(2)
    mine, theirs = keep(state, 0, "master"), keep(state, 1, "master")
    state, _ = act(state, 0, "duel:1:easy")
    state, events = act(state, 1, "master")
    assert "avoids the duel" in texts(events)
    assert state.chance[-2:] == [mine, theirs] and state.hands == [[], []]
    assert state.stage == "act" and state.turn == 0 and state.purses[0] == state.purses[1]


def test_a_master_repels_a_virus_attack() -> None:
    state = new_game(2)
    virus, master = keep(state, 0, "virus"), keep(state, 1, "master")
    state, _ = act(state, 0, "virus:1")
    assert ENGINE.prompts(state)[0].kind == "response"
    state, events = act(state, 1, "master")
    assert "repels the Virus" in texts(events) and state.chance[-2:] == [virus, master]
    assert state.purses[1] == Tokens(globin=3, leukocyte=2, medicine=2)


def test_a_virus_attack_takes_three_globin_converting_by_the_card() -> None:
    state = new_game(2)
    keep(state, 0, "virus")
    purse(state, 1, globin=1, leukocyte=3, medicine=2, hemo=1)
    state, _ = act(state, 0, "virus:1")
    state, events = act(state, 1, "accept")
    # 2 Leukocyte → 1 Globin, 2 Medicine → 1 Globin: 3 Globin paid, the odd Leukocyte and the Hemo stay.
    assert state.purses[1] == Tokens(leukocyte=1, hemo=1)
    assert "pays 3 Globin" in texts(events)


def test_a_virus_victim_short_of_globin_gives_everything_but_hemo() -> None:
    state = new_game(2)
    keep(state, 0, "virus")
    purse(state, 1, globin=1, leukocyte=1, hemo=2)
    state, _ = act(state, 0, "virus:1")
    state, _ = act(state, 1, "accept")
    assert state.purses[1] == Tokens(hemo=2), "Hemo is kept against a Virus"


def test_a_duel_loser_short_of_hemo_converts_globin_then_gives_everything() -> None:
    state = _duel()
    purse(state, 1, globin=2, leukocyte=4)  # type: ignore[arg-type]
    state, _ = answer(state, right=False)  # type: ignore[arg-type]
    state, _ = act(state, 0, "take:hemo")
    assert state.purses[1] == Tokens() and state.purses[0].hemo == 1, "2 L → G twice, 4 G → 1 Hemo, paid"
    state = _duel()
    purse(state, 1, globin=2, medicine=1)  # type: ignore[arg-type]
    state, _ = answer(state, right=False)  # type: ignore[arg-type]
    state, events = act(state, 0, "take:globin")
    # "If the number of tokens is still insufficient, the player gives up all the tokens they have collected."
    assert state.purses[1] == Tokens()
    assert state.purses[0] == Tokens(globin=5, leukocyte=2, medicine=3)
    assert "gives <seat:0> everything" in texts(events)


def test_seven_hemo_ends_the_game_and_the_others_are_ranked_by_hemo_then_worth() -> None:
    state = new_game(4)
    purse(state, 0, hemo=6, globin=4)
    purse(state, 1, hemo=2, globin=1)
    purse(state, 2, hemo=2, leukocyte=2)
    purse(state, 3, hemo=1, globin=9)
    state, events = act(state, 0, "exchange:globin")
    assert state.stage == "over" and "wins" in texts(events)
    result = ENGINE.result(state)
    assert result is not None and result.ranking == [[0], [1, 2], [3]]
    assert result.scores[0] == 28 and result.scores[3] == 13
    assert ENGINE.prompts(state) == [] and all(not keys(state, s) for s in range(4))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, Roll())


def test_a_duel_can_end_the_game() -> None:
    state = _duel()
    purse(state, 0, hemo=6)  # type: ignore[arg-type]
    purse(state, 1, hemo=1)  # type: ignore[arg-type]
    state, _ = answer(state, right=False)  # type: ignore[arg-type]
    state, _ = act(state, 0, "take:hemo")
    result = ENGINE.result(state)
    assert result is not None and result.winners == [0]
    assert sorted(state.chance) != [] and state.challenge is None


def test_late_seats_get_safe_defaults() -> None:
    state = _duel()
    assert ENGINE.default_action(state, 1) == Answer()  # type: ignore[arg-type]
    state = new_game(2)
    keep(state, 0, "virus")
    keep(state, 1, "master")
    state, _ = act(state, 0, "virus:1")
    assert ENGINE.default_action(state, 1) == Respond(master=True)
    state = _duel()
    state, _ = answer(state, right=False)  # type: ignore[arg-type]
    assert ENGINE.default_action(state, 0) == Spoils(take="globin")
    assert ENGINE.default_action(new_game(), 0) == Roll()


def test_bots_answer_right_with_the_tables_odds_per_deck() -> None:
    rng = random.Random(3)
    for level, odds in (("easy", 0.9), ("hard", 0.3)):
        right = 0
        for seed in range(300):
            state = new_game(seed=seed, bot_easy=0.9, bot_hard=0.3)
            state.stage = "pick"
            state, _ = act(state, 0, f"question:{level}")
            assert ENGINE.answer_odds(state, 0) == odds and ENGINE.answer_odds(state, 1) is None
            choice = ENGINE.bot_choice(state, 0, rng)
            right += choice.key == f"answer:{state.question.correct}"  # type: ignore[union-attr]
        assert abs(right / 300 - odds) < 0.08
