"""Secrecy proofs: what a seat sees does not depend on what it may not see.

Hidden: the back side of every card from everyone but its player (in hand:
the side facing its player), everything in a deck but the face on its top
(from everyone, its player included), deck order and the seed. Each test
builds a twin state that differs only in such information and checks that
the view, the prompts and the menus of every seat that may not see it are
unchanged. The custom set's Twin cards share their good side, so swapping a
card's design between them changes its hidden side alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines.phase.state import PhState
from tests.engines.test_phase_helpers import ENGINE, deck_options

SWAP = {"twin-a": "twin-b", "twin-b": "twin-a"}


def states_along(players: int, seed: int) -> Iterator[PhState]:
    rng = random.Random(seed)
    factions = ["keeper", "fengarian", "sun-dominion"][:players]
    state = ENGINE.setup(players, deck_options("custom", factions=factions), seed)
    while ENGINE.result(state) is None:
        yield state
        seat = rng.choice(sorted({p.seat for p in ENGINE.prompts(state)}))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)).action).state
    yield state


def _seen(state: PhState, viewer: int | None) -> tuple[object, ...]:
    prompts = [(p.seat, p.kind, p.text) for p in ENGINE.prompts(state)]
    found = [] if viewer is None else ENGINE.legal_actions(state, viewer)
    menu = [(c.key, c.label, tuple(c.steps), c.detail) for c in found]
    return ENGINE.view(state, viewer).model_dump_json(), prompts, menu


def _all_seen(state: PhState, but: int | None = None) -> list[object]:
    return [_seen(state, v) for v in [None, *range(state.players)] if v is None or v != but]


def _hide_deck(state: PhState, rng: random.Random) -> PhState:
    """Deck order and faces below each top card, and the seed: seen by nobody."""
    other = state.model_copy(deep=True)
    for deck in other.decks:
        below = deck[:-1]
        rng.shuffle(below)
        deck[:-1] = below
        for card in below:
            other.face[card] = rng.randrange(2)
    other.rng.seed += 1
    return other


def _twin_backs(state: PhState, seat: int, zones: tuple[str, ...]) -> PhState | None:
    """Change the hidden side of ``seat``'s Twin cards showing their shared side."""
    other = state.model_copy(deep=True)
    changed = False
    for zone in zones:
        for card in getattr(other, zone)[seat]:
            if other.cards[card] in SWAP and other.face[card] == 0:
                other.cards[card] = SWAP[other.cards[card]]
                changed = True
    return other if changed else None


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (2, 5)])
def test_hidden_sides_and_decks_change_nothing_anyone_else_sees(players: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = {"deck": 0, "backs": 0, "own deck": 0}
    for step, state in enumerate(states_along(players, seed)):
        if step % 5 or step > 300:
            continue
        assert _all_seen(_hide_deck(state, rng)) == _all_seen(state)
        checked["deck"] += 1
        for seat in range(players):
            # The back of a seat's cards in hand, barracks, play and discard: its player only.
            other = _twin_backs(state, seat, ("hands", "barracks", "play", "discards"))
            if other is not None:
                assert _all_seen(other, but=seat) == _all_seen(state, but=seat)
                checked["backs"] += 1
            # The back of the cards in a deck, its top included: nobody, not even its player.
            other = _twin_backs(state, seat, ("decks",))
            if other is not None:
                assert _all_seen(other) == _all_seen(state)
                checked["own deck"] += 1
    assert all(n > 5 for n in checked.values()), checked


def test_a_player_does_see_the_back_of_their_own_hand() -> None:
    for state in states_along(2, 3):
        other = _twin_backs(state, 0, ("hands",))
        if other is not None and any(state.face[c] == 0 and state.cards[c] in SWAP for c in state.hands[0]):
            assert _seen(other, 0) != _seen(state, 0)
            return
    raise AssertionError("no Twin in hand along the game")


def test_opponents_see_each_hand_cards_outward_face_and_each_deck_top() -> None:
    state = next(states_along(3, 4))
    public = ENGINE.view(state, None)
    for seat in range(3):
        shown = public.seats[seat]
        assert [c.face.title for c in shown.hand] == [state.name(c) for c in state.hands[seat]]
        assert all(c.back is None for c in shown.hand)
        assert shown.deck_top is not None and shown.deck_top.title == state.name(state.decks[seat][-1])
        mine = ENGINE.view(state, seat).seats[seat]
        facing = [state.side(c, flipped=True).title for c in state.hands[seat]]
        assert [c.face.title for c in mine.hand] == facing
        assert all(c.back is not None for c in mine.hand)
