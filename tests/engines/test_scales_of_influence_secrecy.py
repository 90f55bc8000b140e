"""Secrecy proofs: views, prompts and public events do not depend on hidden information.

Hidden: alignments, hands, the deck order, the rng, Influence tokens drawn, and
which bag holds which token (until the Weighing reveal). Each test changes some
hidden information and checks that nobody who may not see it can tell.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.scales_of_influence.state import Giving, SoiState
from tests.engines.test_scales_of_influence_helpers import ENGINE, options, public_texts


def states_along(players: int, seed: int, variant: str = "standard") -> Iterator[SoiState]:
    """Every state of one random game, start to end."""
    rng = random.Random(seed)
    state = ENGINE.setup(players, options(variant=variant), seed)
    while ENGINE.result(state) is None:
        yield state
        movers = [(p.seat, ENGINE.legal_actions(state, p.seat)) for p in ENGINE.prompts(state)]
        seat, choices = rng.choice([(s, c) for s, c in movers if c])
        state = ENGINE.apply(state, seat, rng.choice(choices).action).state
    yield state


def _views(state: SoiState) -> list[str]:
    return [ENGINE.view(state, v).model_dump_json() for v in [None, *range(state.players)]]


def _prompts(state: SoiState) -> list[tuple[int, str, str]]:
    return [(p.seat, p.kind, p.text) for p in ENGINE.prompts(state)]


def _swap_hand_card(state: SoiState, seat: int, rng: random.Random) -> SoiState:
    other = state.model_copy(deep=True)
    if other.hands[seat] and other.deck:
        i, j = rng.randrange(len(other.hands[seat])), rng.randrange(len(other.deck))
        other.hands[seat][i], other.deck[j] = other.deck[j], other.hands[seat][i]
    return other


def _check_hidden_changes(state: SoiState, rng: random.Random) -> None:
    if state.phase == "over":
        return
    views, prompts = _views(state), _prompts(state)
    # the deck order and the rng are seen by nobody
    other = state.model_copy(deep=True)
    rng.shuffle(other.deck)
    other.rng.seed += 1
    assert _views(other) == views and _prompts(other) == prompts
    # a seat's hand is seen by that seat only
    seat = rng.randrange(state.players)
    other = _swap_hand_card(state, seat, rng)
    changed = _views(other)
    assert [v for i, v in enumerate(changed) if i != seat + 1] == [
        v for i, v in enumerate(views) if i != seat + 1
    ]
    assert _prompts(other) == prompts
    # alignments are seen by their owners only
    other = state.model_copy(deep=True)
    other.alignments = other.alignments[1:] + other.alignments[:1]
    assert _views(other)[0] == views[0] and _prompts(other) == prompts
    for viewer in range(state.players):
        mine = ENGINE.view(other, viewer).model_dump(exclude={"alignment"})
        assert mine == ENGINE.view(state, viewer).model_dump(exclude={"alignment"})
    # the bags are seen by nobody until the Weighing reveal
    if not state.revealed:
        other = state.model_copy(deep=True)
        other.bags = {"shadow": other.bags["light"], "light": other.bags["shadow"]}
        assert _views(other) == views and _prompts(other) == prompts
    # drawn tokens are seen by the giver only
    giving = next((i for i in state.stack if isinstance(i, Giving)), None)
    if giving is not None and state.source_tokens:
        other = state.model_copy(deep=True)
        g = next(i for i in other.stack if isinstance(i, Giving))
        g.drawn[0], other.source_tokens[0] = other.source_tokens[0], g.drawn[0]
        changed = _views(other)
        assert [v for i, v in enumerate(changed) if i != g.seat + 1] == [
            v for i, v in enumerate(views) if i != g.seat + 1
        ]
        assert _prompts(other) == prompts


def test_views_and_prompts_ignore_hidden_information() -> None:
    rng = random.Random(0)
    for players, seed in [(3, 1), (4, 2), (5, 3), (6, 4), (7, 5)]:
        for step, state in enumerate(states_along(players, seed)):
            if step % 3 == 0:
                _check_hidden_changes(state, rng)


def test_no_hidden_card_appears_in_another_view() -> None:
    for players, seed in [(4, 11), (7, 12)]:
        for state in states_along(players, seed):
            if state.phase == "over":
                continue
            public = ENGINE.view(state, None).model_dump_json()
            for card in state.deck:
                assert f'"id":{card},' not in public
            for seat in range(players):
                for viewer in [None, *[s for s in range(players) if s != seat]]:
                    text = public if viewer is None else ENGINE.view(state, viewer).model_dump_json()
                    for card in state.hands[seat]:
                        assert f'"id":{card},' not in text
            view = ENGINE.view(state, None)
            assert view.alignment is None and view.hand is None and view.drawn_tokens is None
            assert view.alignments is None


def test_alignments_change_no_public_event() -> None:
    """The same moves with the alignments dealt differently tell the public the same story."""
    for players, seed in [(4, 21), (5, 22), (7, 23)]:
        rng = random.Random(seed)
        first = ENGINE.setup(players, options(), seed)
        second = first.model_copy(deep=True)
        second.alignments = second.alignments[::-1]
        while ENGINE.result(first) is None:
            assert _prompts(first) == _prompts(second)
            assert ENGINE.view(first, None) == ENGINE.view(second, None)
            movers = [(p.seat, ENGINE.legal_actions(first, p.seat)) for p in ENGINE.prompts(first)]
            seat, choices = rng.choice([(s, c) for s, c in movers if c])
            action = rng.choice(choices).action
            a, b = ENGINE.apply(first, seat, action), ENGINE.apply(second, seat, action)
            if ENGINE.result(a.state) is None:
                assert public_texts(a.events) == public_texts(b.events)
            first, second = a.state, b.state


def test_which_token_and_which_bag_stay_secret() -> None:
    state = ENGINE.setup(4, options(traveler=0), 5)
    state = ENGINE.apply(state, 0, ENGINE.choice(state, 0, "receive:energy").action).state
    state = ENGINE.apply(state, 0, ENGINE.choice(state, 0, "give").action).state
    outcomes = []
    for choice in ENGINE.legal_actions(state, 0):
        if choice.key.startswith("token:"):
            after = ENGINE.apply(state, 0, choice.action)
            others = [ENGINE.view(after.state, v).model_dump_json() for v in (None, 1, 2, 3)]
            outcomes.append((public_texts(after.events), others, _prompts(after.state)))
    assert len(outcomes) >= 2 and all(o == outcomes[0] for o in outcomes)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 7), stop=st.integers(0, 400))
def test_json_round_trip_mid_game(seed: int, players: int, stop: int) -> None:
    for step, state in enumerate(states_along(players, seed)):
        if step == stop or state.phase == "over":
            text = ENGINE.dump_state(state)
            assert ENGINE.load_state(text) == state
            assert ENGINE.dump_state(ENGINE.load_state(text)) == text
            break
