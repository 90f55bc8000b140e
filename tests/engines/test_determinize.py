"""Samples for the bots: a determinized state agrees exactly with what its seat
sees, hides nothing the seat cannot see, and depends on that view alone."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from engines.core import Engine
from engines.phase.cards import DeckSpec, builtin_deck
from engines.registry import GAMES

# The games that sample hidden information for their bots (a game that does not
# is played by random bots: see test_bots).
SAMPLED = {key: engine for key, engine in GAMES.items() if type(engine).determinize is not Engine.determinize}
CASES = [
    (key, n)
    for key, engine in sorted(SAMPLED.items())
    for n in sorted({engine.info.min_players, engine.info.max_players})
]


def _states(engine: Engine[Any, Any], players: int, seed: int, every: int = 7) -> list[BaseModel]:
    """States along a random game, every ``every`` moves."""
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    seen = []
    for step in range(2000):
        if engine.result(state) is not None:
            break
        if step % every == 0:
            seen.append(state)
        movers = sorted({p.seat for p in engine.prompts(state) if engine.legal_actions(state, p.seat)})
        seat = rng.choice(movers)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).action).state
    return seen


def _hidden_part(state: BaseModel) -> dict[str, Any]:
    return state.model_dump(mode="json", exclude={"rng"})


@pytest.mark.parametrize(("key", "players"), CASES)
def test_a_sample_agrees_with_the_seats_view(key: str, players: int) -> None:
    engine = SAMPLED[key]
    changed = 0
    for seed in (1, 2):
        for state in _states(engine, players, seed):
            for seat in range(players):
                sample = engine.determinize(state, seat, random.Random(seed * 1000 + seat))
                assert sample is not None
                assert engine.view(sample, seat) == engine.view(state, seat)
                assert engine.view(sample, None) == engine.view(state, None)
                assert engine.prompts(sample) == engine.prompts(state)
                assert engine.legal_actions(sample, seat) == engine.legal_actions(state, seat)
                assert sample.rng != state.rng  # type: ignore[attr-defined]
                changed += _hidden_part(sample) != _hidden_part(state)
                # Whatever the seat cannot see does not reach the sample: a state
                # it cannot tell apart from the true one gives the same sample.
                twin = engine.determinize(sample, seat, random.Random(7))
                assert twin == engine.determinize(state, seat, random.Random(7))
    assert changed > 0, "the samples never differ from the true state: nothing was dealt again"


def test_every_landed_game_samples_for_its_bots() -> None:
    assert {
        "spheres-of-life",
        "scales-of-influence",
        "time-masters",
        "once-upon-a-time-life",
        "phase",
    } <= set(SAMPLED)


def _samples(key: str, players: int, seed: int, every: int) -> Iterator[tuple[Any, Any, int]]:
    """(true state, sample, seat) along a random game (typed loosely: the tests read game fields)."""
    engine = GAMES[key]
    for state in _states(engine, players, seed, every):
        for seat in range(players):
            yield state, engine.determinize(state, seat, random.Random(seat)), seat


def test_life_deals_only_unseen_master_and_virus_cards_into_other_hands() -> None:
    dealt = 0
    # Two games: in one alone, nobody may keep a card while another is sampled.
    both = [
        *_samples("once-upon-a-time-life", 4, 3, every=3),
        *_samples("once-upon-a-time-life", 4, 4, every=3),
    ]
    for state, sample, seat in both:
        assert sample.hands[seat] == state.hands[seat]
        for other in range(4):
            assert len(sample.hands[other]) == len(state.hands[other])
            assert all(sample.card("chance", c).keep for c in sample.hands[other])
        # Every Chance card lies in exactly one place, as in the true state.
        places = [*sample.chance, *(c for h in sample.hands for c in h)]
        if sample.challenge is not None:
            places += sample.challenge.cards
        assert sorted(places) == list(range(len(sample.chance_cards)))
        dealt += sample.hands != state.hands
    assert dealt, "the other players' kept cards were never dealt again"


def test_phase_keeps_each_players_cards_and_deals_their_decks_again() -> None:
    redrawn = 0
    for state, sample, _ in _samples("phase", 3, 4, every=5):
        for player in range(3):
            for zone in ("decks", "hands", "barracks", "play", "discards"):
                assert getattr(sample, zone)[player] == getattr(state, zone)[player]
            # Designs never move to another player (factions hold).
            ids = [*state.decks[player], *state.hands[player]]
            assert sorted(sample.cards[c] for c in ids) == sorted(state.cards[c] for c in ids)
            # In the built-in set no two cards share a side: a face seen names
            # its card, so only what lies under a deck's top changes.
            for card in [*state.hands[player], *state.decks[player][-1:]]:
                assert (sample.cards[card], sample.face[card]) == (state.cards[card], state.face[card])
            under = state.decks[player][:-1]
            redrawn += [(sample.cards[c], sample.face[c]) for c in under] != [
                (state.cards[c], state.face[c]) for c in under
            ]
    assert redrawn, "no deck was ever dealt again"


def test_the_default_copies_open_games_and_refuses_hidden_ones() -> None:
    engine = GAMES["time-masters"]
    state = engine.setup(2, engine.parse_options(), 3)
    assert Engine.determinize(engine, state, 0, random.Random(1)) is None
    open_info = engine.info.model_copy(update={"hidden_information": False})
    engine_open = type("Open", (type(engine),), {"info": open_info})()
    copy = Engine.determinize(engine_open, state, 0, random.Random(1))
    assert copy == state and copy is not state


def test_phase_redraws_what_a_shared_face_hides_of_another_players_hand() -> None:
    # A set where every card has a twin sharing its first side: seeing that
    # face on another player's hand card no longer tells which card it is.
    built_in = builtin_deck()
    twins = [
        c.model_copy(
            update={
                "id": f"{c.id[:20]}-twin",
                "sides": [c.sides[0], c.sides[1].model_copy(update={"title": "Twin"})],
            }
        )
        for c in built_in.cards
    ]
    deck = DeckSpec(cards=[*built_in.cards, *twins])
    engine = GAMES["phase"]
    options = engine.parse_options({"deck": deck.model_dump(mode="json")})
    varied = 0
    for game_seed in range(6):
        state = engine.setup(2, options, game_seed)
        hand = state.hands[1]  # type: ignore[attr-defined]
        inward = set()
        for seed in range(10):
            sample = engine.determinize(state, 0, random.Random(seed))
            assert engine.view(sample, 0) == engine.view(state, 0)
            inward.add(tuple(sample.side(c, flipped=True).title for c in hand))  # type: ignore[attr-defined]
        varied += len(inward) > 1
    assert varied, "another player's hand showed the same inward faces in every sample"
