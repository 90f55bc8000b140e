"""Secrecy proofs with twin states: change only what a seat may not see, and
nothing it sees — views, prompts (their timing and text), its menus — changes.

Hidden: the order of every deck (nobody), the seed, the kept Master and Virus
cards (their holder), and which shown answer of an open question is right
(everyone, the answerer included, until it is answered).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines.once_upon_a_time_life.state import LifeState
from tests.engines.test_once_upon_a_time_life_helpers import ENGINE, act, keep, new_game


def states_along(players: int, seed: int) -> Iterator[LifeState]:
    rng = random.Random(seed)
    state = new_game(players, seed)
    while ENGINE.result(state) is None:
        yield state
        seat = rng.choice(sorted({p.seat for p in ENGINE.prompts(state)}))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)).action).state


def _seen(state: LifeState, viewer: int | None) -> object:
    prompts = [(p.seat, p.kind, p.text, p.timeout) for p in ENGINE.prompts(state)]
    menus = (
        []
        if viewer is None
        else [(c.key, c.label, c.steps, c.action) for c in ENGINE.legal_actions(state, viewer)]
    )
    return ENGINE.view(state, viewer).model_dump_json(), prompts, menus


def _all_seen(state: LifeState, but: int | None = None) -> list[object]:
    return [_seen(state, v) for v in [None, *range(state.players)] if v is None or v != but]


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_deck_order_and_the_seed_change_nothing_anyone_sees(players: int, seed: int) -> None:
    rng = random.Random(seed)
    for step, state in enumerate(states_along(players, seed)):
        if step % 4 or step > 400:
            continue
        other = state.model_copy(deep=True)
        for pile in (other.chance, other.bad_luck, other.easy_pile, other.hard_pile):
            rng.shuffle(pile)
        other.rng.seed += 1
        assert _all_seen(other) == _all_seen(state)


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 5), (4, 6)])
def test_a_kept_master_or_virus_is_seen_by_its_holder_alone(players: int, seed: int) -> None:
    checked = 0
    for step, state in enumerate(states_along(players, seed)):
        if step % 5 or step > 300:
            continue
        for holder in range(players):
            master, virus = state.model_copy(deep=True), state.model_copy(deep=True)
            keep(master, holder, "master")
            keep(virus, holder, "virus")
            # the same card count, another card: only the holder may tell them apart
            assert _all_seen(master, but=holder) == _all_seen(virus, but=holder)
            assert _seen(master, holder) != _seen(virus, holder)
            checked += 1
    assert checked > 20


def test_a_duel_target_holding_a_master_looks_like_one_holding_a_virus() -> None:
    twins = []
    for design in ("master", "virus"):
        state = new_game(3)
        keep(state, 0, "master")
        keep(state, 1, design)
        state, events = act(state, 0, "duel:1:easy")
        twins.append((_all_seen(state, but=1), [e.text for e in events if e.to is None]))
    assert twins[0] == twins[1]


def _twin_with_another_right_answer(state: LifeState) -> LifeState:
    """The same question and the same four answers in the same order on screen,
    but the right one is another of them."""
    assert state.question is not None
    other = state.model_copy(deep=True)
    q = state.asked()
    wrong = q.wrong[0]
    changed = q.model_copy(update={"answer": wrong, "wrong": [q.answer, *q.wrong[1:]]})
    level = list(state.questions.level(state.question.level))
    level[state.question.number] = changed
    other.custom_questions = state.questions.model_copy(update={state.question.level: level})
    assert other.question is not None
    # options are [answer, *wrong]: indices 0 and 1 swapped places
    other.question.shown = [{0: 1, 1: 0}.get(i, i) for i in state.question.shown]
    assert other.question.correct != state.question.correct
    return other


@pytest.mark.parametrize("purpose", ["space", "attack"])
def test_nothing_tells_which_shown_answer_is_right_before_it_is_answered(purpose: str) -> None:
    state = new_game(3)
    if purpose == "space":
        state.stage = "pick"
        state, _ = act(state, 0, "question:hard")
    else:
        keep(state, 0, "master")
        state, _ = act(state, 0, "duel:2:easy")
        state, _ = act(state, 2, "accept")
    other = _twin_with_another_right_answer(state)
    assert _all_seen(other) == _all_seen(state), "the answerer included"
    # once answered, the answer is public
    key = f"answer:{state.question.correct}"  # type: ignore[union-attr]
    _, said = act(state, state.question.answerer, key)  # type: ignore[union-attr]
    _, twin_said = act(other, state.question.answerer, key)  # type: ignore[union-attr]
    assert "correct" in said[0].text and "wrong" in twin_said[0].text
