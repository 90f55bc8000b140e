"""Hidden information: views hide hands, deck and secrets; prompts never depend on them;
states survive JSON."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import Transition
from engines.playout import playout
from engines.spheres_of_life import ENGINE, SolState, knowledge
from tests.engines.test_spheres_of_life_helpers import VARIANTS, fresh, give, options, to_dream


def _states(players: int, seed: int, **raw: object) -> list[SolState]:
    seen: list[SolState] = []

    def keep(previous: object, transition: Transition[SolState]) -> None:
        seen.append(transition.state)

    playout(ENGINE, players, options(**raw), seed=seed, after_step=keep)
    return seen


def _calm(state: SolState) -> bool:
    """No card id is referred to outside its place (so cards may be permuted freely)."""
    dream = state.dream
    return state.pending is None and (dream is None or (dream.offer is None and dream.exchange is None))


def _permute(state: SolState, keep: int | None, rng: random.Random) -> SolState:
    """The same public situation with the hidden cards (deck, hands but ``keep``'s) shuffled."""
    other = state.model_copy(deep=True)
    seats = [s for s in range(state.players) if s != keep]
    pool = other.deck + [c for s in seats for c in other.hands[s]]
    rng.shuffle(pool)
    other.deck, pool = pool[: len(other.deck)], pool[len(other.deck) :]
    for seat in seats:
        size = len(other.hands[seat])
        other.hands[seat], pool = pool[:size], pool[size:]
    return other


def test_public_view_and_prompts_ignore_who_holds_what() -> None:
    rng = random.Random(1)
    checked = 0
    for players, raw in ((2, {}), (4, {}), (3, {"pace": True}), (5, {"decks": 2}), (3, {"purist": True})):
        for state in _states(players, seed=players, **raw)[::3]:
            if not _calm(state):
                continue
            other = _permute(state, None, rng)
            assert ENGINE.prompts(other) == ENGINE.prompts(state)
            assert ENGINE.view(other, None) == ENGINE.view(state, None)
            checked += 1
    assert checked > 100


def test_a_seat_sees_only_its_own_hand() -> None:
    rng = random.Random(2)
    for state in _states(4, seed=11)[::2]:
        if not _calm(state):
            continue
        for viewer in range(state.players):
            other = _permute(state, viewer, rng)
            assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)


def test_secret_hero_picks_and_throws_stay_secret_until_revealed() -> None:
    state = ENGINE.setup(3, options(), seed=9)
    state.hero_picks = [["druid"], [], []]
    other = state.model_copy(update={"hero_picks": [["oracle"], [], []]})
    assert ENGINE.view(state, None) == ENGINE.view(other, None)
    assert ENGINE.view(state, 1) == ENGINE.view(other, 1)
    state.stage, state.rps_players, state.rps = "rps", [0, 1, 2], ["rock", None, None]
    other = state.model_copy(update={"rps": ["paper", None, None]})
    assert ENGINE.view(state, None) == ENGINE.view(other, None)
    assert ENGINE.prompts(state) == ENGINE.prompts(other)
    assert ENGINE.view(state, 0).my_throw == "rock"
    assert '"rng"' not in ENGINE.view(state, None).model_dump_json()


def test_exchange_answers_open_to_every_other_seat_alike() -> None:
    for state in _states(4, seed=3):
        dream = state.dream
        if dream is not None and dream.exchange is not None and not dream.exchange.refused:
            waiting = {p.seat for p in ENGINE.prompts(state)}
            assert waiting == set(dream.exchange.waiting)
            assert all("decline" in [c.key for c in ENGINE.legal_actions(state, s)] for s in waiting)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400), variant=st.sampled_from(sorted(VARIANTS)))
def test_states_round_trip_through_json_mid_game(seed: int, steps: int, variant: str) -> None:
    opts = options(**VARIANTS[variant])
    state = ENGINE.setup(3, opts, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if ENGINE.result(state) is not None:
            break
        movers = [p.seat for p in ENGINE.prompts(state) if ENGINE.legal_actions(state, p.seat)]
        seat = rng.choice(movers)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)).action).state
    again = ENGINE.load_state(ENGINE.dump_state(state))
    assert again == state
    assert ENGINE.view(again, 0) == ENGINE.view(state, 0)


def test_same_seed_same_moves_same_game() -> None:
    first, _ = playout(ENGINE, 4, options(), seed=42)
    second, _ = playout(ENGINE, 4, options(), seed=42)
    assert first == second


def test_a_bots_sample_keeps_the_cards_its_seat_has_seen_in_another_hand() -> None:
    """A card shown by Blessed Cherry may be stolen by name while it stays put, so a bot's
    sample must not deal it again: the steal it would weigh would be of another card."""
    state = to_dream(fresh(3), leader=0)
    (rabbit,) = give(state, 1, "noble-rabbit")
    give(state, 1, "noble-bear", "corrupted-rat", "noble-owl")
    give(state, 2, "noble-fox", "noble-deer")
    knowledge.remember(state, 0, 1, [rabbit])
    for sample_seed in range(20):
        sample = ENGINE.determinize(state, 0, random.Random(sample_seed))
        assert sample.kind(rabbit) == "noble-rabbit"
        assert ENGINE.legal_actions(sample, 0) == ENGINE.legal_actions(state, 0)
    # The other cards are dealt again.
    kinds = {ENGINE.determinize(state, 0, random.Random(s)).kind(state.hands[2][0]) for s in range(20)}
    assert len(kinds) > 1
