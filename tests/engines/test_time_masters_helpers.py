"""Shared helpers and invariant checks for the Time Masters tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.core import CHOICE_KEY, Event, Transition
from engines.time_masters import ENGINE, TmOptions
from engines.time_masters.state import TmState

COUNTS = [2, 3, 4]


def options(**raw: Any) -> TmOptions:
    parsed = ENGINE.parse_options(raw)
    assert isinstance(parsed, TmOptions)
    return parsed


def new_game(players: int = 2, seed: int = 1, **raw: Any) -> TmState:
    return ENGINE.setup(players, options(**raw), seed)


def places(state: TmState) -> list[int]:
    """Every card id in every place; each must appear exactly once."""
    found = [c for pile in state.spheres for c in pile]
    for seat in range(state.players):
        found += state.decks[seat] + state.hands[seat] + state.discards[seat]
        for timer in state.timers[seat]:
            found += [timer.card, *timer.spells, *timer.delays]
    return found + state.played + state.released


def check_invariants(state: TmState) -> None:
    counts = Counter(places(state))
    assert sorted(counts) == list(range(len(state.cards))), "a card is lost or invented"
    assert all(n == 1 for n in counts.values()), f"a card is in two places: {counts.most_common(2)}"
    assert all(0 <= ke <= state.options.ke for ke in state.ke)
    for seat in range(state.players):
        assert len(state.timers[seat]) <= (state.options.max_timers or len(state.cards))
        for timer in state.timers[seat]:
            assert state.spec(timer.card).kind == "timer"
            assert len(timer.spells) <= state.spec(timer.card).capacity
            assert all(state.spec(c).kind == "spell" for c in timer.spells)
    assert all(state.spec(c).kind == "spell" for c in state.released)
    assert state.access_points >= 0
    assert len(set(state.bought_from)) == len(state.bought_from), "two buys from one sphere"
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state, "the state does not round-trip"


def check_choices(state: TmState) -> None:
    for seat in range(state.players):
        found = ENGINE.legal_actions(state, seat)
        keys = [c.key for c in found]
        assert len(set(keys)) == len(keys), "two choices share a key"
        paths = [tuple(c.steps) for c in found]
        assert len(set(paths)) == len(paths), f"two choices share one menu path: {paths}"
        for choice in found:
            assert CHOICE_KEY.match(choice.key)
            assert len(choice.label) <= 80, choice.label
        if seat != state.turn or state.phase == "over":
            assert not found


def after_step(state: Any, transition: Transition[Any]) -> None:
    check_invariants(transition.state)


def card_of(state: TmState, design: str, *, exclude: tuple[int, ...] = ()) -> int:
    """A physical card of ``design`` lying in a sphere or a deck (not in use)."""
    pools = [*state.spheres, *state.decks, *state.discards]
    for pool in pools:
        for card in pool:
            if state.cards[card] == design and card not in exclude:
                return card
    raise KeyError(design)


def give(state: TmState, seat: int, *designs: str) -> list[int]:
    """Move one card of each design into ``seat``'s hand from wherever it lies."""
    moved: list[int] = []
    for design in designs:
        card = card_of(state, design, exclude=tuple(moved))
        for pool in [*state.spheres, *state.decks, *state.discards]:
            if card in pool:
                pool.remove(card)
        state.hands[seat].append(card)
        moved.append(card)
    return moved


def set_hand(state: TmState, seat: int, *designs: str) -> list[int]:
    """Make ``seat``'s hand exactly the named cards (the old hand goes to its discard pile)."""
    state.discards[seat] += state.hands[seat]
    state.hands[seat] = []
    return give(state, seat, *designs)


def act(state: TmState, seat: int, key: str) -> tuple[TmState, list[Event]]:
    choice = ENGINE.choice(state, seat, key)
    transition = ENGINE.apply(state, seat, choice.action)
    return transition.state, transition.events


def keys(state: TmState, seat: int | None = None) -> list[str]:
    return [c.key for c in ENGINE.legal_actions(state, state.turn if seat is None else seat)]
