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
from tests.engines.test_phase_helpers import ENGINE, act, deck_options, fight, pass_round, put, table

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


# ----- skirmishes -----

FIGHTING = ("attackers", "defenders", "skirmishes", "skirmish")


def _fighting(players: int, seed: int, limit: int) -> Iterator[PhState]:
    """The first ``limit`` states of a random game (custom set) from a declaration
    of attackers to the last skirmish's resolution."""
    found = 0
    for state in states_along(players, seed):
        if state.step in FIGHTING:
            yield state
            found += 1
            if found == limit:
                return


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12)])
def test_nothing_hidden_shows_while_warriors_fight(players: int, seed: int) -> None:
    """Declarations, action rounds and resolutions: a hidden side, deck order and
    faces, and the seed change nothing anyone else sees."""
    rng = random.Random(seed)
    checked = {"fighting": 0, "backs": 0, "resolving": 0, "resolved": 0}
    for state in _fighting(players, seed, limit=160):
        assert _all_seen(_hide_deck(state, rng)) == _all_seen(state)
        checked["fighting"] += 1
        checked["resolving"] += state.step == "skirmish"
        checked["resolved"] += any(f.done for f in state.skirmishes)
        for seat in range(players):
            other = _twin_backs(state, seat, ("hands", "barracks", "play", "discards"))
            if other is not None:
                assert _all_seen(other, but=seat) == _all_seen(state, but=seat)
                checked["backs"] += 1
            other = _twin_backs(state, seat, ("decks",))
            if other is not None:
                assert _all_seen(other) == _all_seen(state)
    assert all(n > 20 for n in checked.values()), checked


def fallen_scout(seed: int) -> tuple[PhState, int]:
    """Scout (Relentless: enlist a card, locked) falls to Pennaggolan with its player's deck
    empty: the discard pile, Scout in it, is shuffled into a deck with its sides turned at
    random, while Chained Horror's skirmish is still to come. ``seed`` orders the shuffle."""
    state = table()
    state.step = "attack"
    state.rng.seed = seed
    scout = put(state, 0, "play", "Scout")
    horror = put(state, 0, "play", "Chained Horror")
    penna = put(state, 1, "play", "Pennaggolan")
    state.discards[0] += state.decks[0][:6]
    state.decks[0] = []
    state = fight(state, [(scout, None), (horror, None)], [(penna, scout)])
    state, _ = act(state, 0, f"resolve:{scout}")
    return pass_round(state), scout


def test_a_fallen_attacker_shuffled_into_its_deck_is_named_as_it_fell() -> None:
    hidden = 0
    for seed in range(12):
        state, scout = fallen_scout(seed)
        assert state.step == "skirmishes" and not state.discards[0]
        shown = ENGINE.view(state, None).skirmishes
        assert [(f.attacker, f.done) for f in shown] == [("Scout", True), ("Chained Horror", False)]
        if scout in state.decks[0][:-1]:
            # Its face there is nobody's to see: turning it changes no view, prompt or menu.
            assert _all_seen(_hide_deck(state, random.Random(seed))) == _all_seen(state)
            # Nor does a bot's sample keep it: it is dealt again with the rest of the deck.
            turned = state.model_copy(deep=True)
            turned.face[scout] ^= 1
            for seat in range(2):
                assert ENGINE.determinize(turned, seat, random.Random(seed)) == ENGINE.determinize(
                    state, seat, random.Random(seed)
                )
            hidden += 1
    assert hidden >= 2, "Scout never lay under its deck's top"


def test_a_bot_samples_a_table_where_a_player_holds_no_card() -> None:
    state = ENGINE.setup(2, deck_options("builtin"), 4)
    for seat in range(2):
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0].action).state
    state.discards[1] += state.hands[1]
    state.hands[1] = []  # every order played
    sample = ENGINE.determinize(state, 0, random.Random(1))
    assert sample.hands[1] == [] and ENGINE.view(sample, 0) == ENGINE.view(state, 0)
