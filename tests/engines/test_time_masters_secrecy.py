"""Secrecy proofs: views and prompts do not depend on what a seat may not see.

Hidden: every hand (seen by its owner), every deck's order (nobody), the spells
laid on a timer (their owner) and the cards delaying it, each sphere's cards
below the top (nobody), and the seed. Each test changes only such hidden
information and checks that nothing a seat may see changes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines.time_masters.state import TmState
from tests.engines.test_time_masters_helpers import ENGINE, new_game


def states_along(players: int, seed: int) -> Iterator[TmState]:
    rng = random.Random(seed)
    state = new_game(players, seed)
    while ENGINE.result(state) is None:
        yield state
        seat = state.turn
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)).action).state
    yield state


def _seen(state: TmState, viewer: int | None) -> tuple[str, list[tuple[int, str, str]]]:
    prompts = [(p.seat, p.kind, p.text) for p in ENGINE.prompts(state)]
    return ENGINE.view(state, viewer).model_dump_json(), prompts


def _all_seen(state: TmState, but: int | None = None) -> list[object]:
    return [_seen(state, v) for v in [None, *range(state.players)] if v != but or v is None]


def _swap(state: TmState, seat: int, rng: random.Random) -> TmState | None:
    """Swap a card of ``seat``'s hand with one in its deck (same counts, another hand)."""
    other = state.model_copy(deep=True)
    hand, deck = other.hands[seat], other.decks[seat]
    if not hand or not deck:
        return None
    i, j = rng.randrange(len(hand)), rng.randrange(len(deck))
    hand[i], deck[j] = deck[j], hand[i]
    return other


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_hidden_information_changes_nothing_anyone_else_sees(players: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for step, state in enumerate(states_along(players, seed)):
        # Every third state of the game's first 240: every phase, timers included, at a test's pace.
        if state.phase == "over" or step % 3 or step > 240:
            continue
        # deck order, the spheres below their top cards, and the seed: seen by nobody
        other = state.model_copy(deep=True)
        for deck in other.decks:
            rng.shuffle(deck)
        for pile in other.spheres:
            pile[1:] = rng.sample(pile[1:], len(pile[1:]))
        other.rng.seed += 1
        assert _all_seen(other) == _all_seen(state)
        # a hand: seen by its owner only
        seat = rng.randrange(players)
        other = _swap(state, seat, rng)
        if other is not None:
            assert _all_seen(other, but=seat) == _all_seen(state, but=seat)
            checked += 1
        # what lies on a timer: its owner only
        for owner in range(players):
            for index, timer in enumerate(state.timers[owner]):
                if timer.spells and state.hands[owner]:
                    other = state.model_copy(deep=True)
                    spell = other.timers[owner][index].spells[0]
                    swap_with = other.hands[owner][0]
                    other.timers[owner][index].spells[0], other.hands[owner][0] = swap_with, spell
                    assert _all_seen(other, but=owner) == _all_seen(state, but=owner)
    assert checked > 10


def test_the_owner_does_see_their_hand_and_timer() -> None:
    state = new_game(2, seed=5)
    seat = state.turn
    other = _swap(state, seat, random.Random(1))
    assert other is not None and _seen(other, seat) != _seen(state, seat)


def test_the_public_sees_the_top_of_each_sphere_but_not_the_second_card() -> None:
    state = new_game(2, seed=6)
    view = ENGINE.view(state, None)
    assert [s.top.uid if s.top else None for s in view.spheres] == [p[0] for p in state.spheres]
    dumped = view.model_dump_json()
    for pile in state.spheres:
        assert f'"uid":{pile[1]},' not in dumped
