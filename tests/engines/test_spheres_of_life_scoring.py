"""Counting points and breaking ties, as the rulebook's examples say."""

from __future__ import annotations

import pytest

from engines.spheres_of_life import ENGINE
from engines.spheres_of_life.scoring import animal_points, score
from tests.engines.test_spheres_of_life_helpers import act_unblocked, fresh, give, to_dream


@pytest.mark.parametrize("copies, points", [(0, 0), (1, 1), (2, 4), (3, 9), (4, 10), (5, 13), (6, 18)])
def test_animal_points(copies: int, points: int) -> None:
    assert animal_points(copies) == points


def test_rulebook_examples_rabbits_snakes_and_five_rabbits() -> None:
    state = fresh(2, decks=2)
    give(state, 0, *["noble-rabbit"] * 5)
    assert score(state, 0) == 13
    give(state, 1, *["corrupted-snake"] * 2)
    assert score(state, 1) == -4


def test_banked_sets_and_unused_abilities() -> None:
    state = fresh(2)
    give(state, 0, *["noble-rabbit"] * 3, *["corrupted-snake"] * 3, "apple-of-life", "morning-dew")
    state.banked[0] = state.hands[0][:6]
    state.hands[0] = state.hands[0][6:]
    assert score(state, 0) == 6 + 3 - 2


def test_heroes_score_nothing() -> None:
    state = fresh(2)
    give(state, 0, "druid", "noble-deer")
    assert score(state, 0) == 1


def _finish(state):  # type: ignore[no-untyped-def]
    state.stage = "over"
    return ENGINE.result(state)


def test_highest_wins_then_fewer_cards_then_a_draw() -> None:
    state = fresh(3)
    give(state, 0, "noble-rabbit", "noble-rabbit")  # 4 points, 2 cards
    give(state, 1, "noble-deer", "noble-deer", "apple-of-life", "morning-dew")  # 2 points, 4 cards
    give(state, 2, "noble-owl", "corrupted-snake", "noble-fox", "noble-fox")  # 4 points, 4 cards
    result = _finish(state)
    assert result.ranking == [[0], [2], [1]]
    state.hands[0].append(next(c for c in state.deck if state.kind(c) == "phoenix-ash"))
    state.hands[0].append(next(c for c in state.deck if state.kind(c) == "noble-bear"))
    state.deck = [c for c in state.deck if c not in state.hands[0]]
    result = _finish(state)
    assert result.ranking == [[0, 2], [1]], "same points, same number of cards: a draw"
    assert result.scores[0] == 4.0


def test_restore_the_balance_first_at_zero_after_the_second_day_wins() -> None:
    state = to_dream(fresh(3, goal="balance"))
    _, snake, _ = give(state, 0, "noble-rabbit", "corrupted-snake", "noble-owl")  # 1 - 1 + 1 = 1
    _, fox = give(state, 1, "noble-deer", "noble-fox")
    give(state, 2, "corrupted-rat", "noble-bear")  # 0 already
    state.days_done = 1
    state = act_unblocked(state, 0, f"gift:{snake}:1")[0]
    assert ENGINE.result(state) is None, "before the second Day is over nobody wins at 0"
    state.days_done = 2
    state = act_unblocked(state, 1, f"gift:{fox}:0")[0]
    result = ENGINE.result(state)
    assert result is not None and result.ranking[0] == [2] and state.stage == "over"


def test_match_of_rounds_adds_points_up() -> None:
    state = fresh(2, rounds=2)
    state.match_scores, state.round_no = [10, 3], 2
    give(state, 1, *["noble-rabbit"] * 3)
    result = _finish(state)
    assert result.ranking == [[0], [1]] and result.scores == {0: 10.0, 1: 3.0}


def test_a_match_round_ends_and_the_next_begins_with_new_heroes() -> None:
    state = to_dream(fresh(2, rounds=2), last=True)
    *_, snake = give(state, 0, "noble-rabbit", "noble-rabbit", "corrupted-snake")
    state.deck = []
    state.discard = [
        c
        for c, k in enumerate(state.cards)
        if c not in state.hands[0] + state.hands[1] and state.deck_spec.group(k) != "hero"
    ]
    state.dream.to_act = [0]  # type: ignore[union-attr]
    state = ENGINE.apply(state, 0, {"type": "gift", "card": snake, "target": 1}).state
    assert state.round_no == 2 and state.stage == "heroes"
    assert state.match_scores == [4, -1]
    assert ENGINE.result(state) is None
    assert all(len(h) == 0 for h in state.hands) and not state.heroes_used[0]
