"""Shared helpers and invariant checks for the Scales of Influence tests."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from engines.core import CHOICE_KEY, Event, Transition
from engines.scales_of_influence import ENGINE, SoiOptions
from engines.scales_of_influence.flow import conserved
from engines.scales_of_influence.state import TOKENS, Giving, SoiState

COUNTS_AND_VARIANTS: list[tuple[int, str]] = [(n, "standard") for n in range(3, 8)] + [
    (4, "shadow-vs-light"),
    (6, "shadow-vs-light"),
]


def options(**raw: Any) -> SoiOptions:
    parsed = ENGINE.parse_options(raw)
    assert isinstance(parsed, SoiOptions)
    return parsed


def new_game(players: int = 4, seed: int = 1, **raw: Any) -> SoiState:
    raw.setdefault("traveler", 0)
    return ENGINE.setup(players, options(**raw), seed)


def card_id(state: SoiState, name: str) -> int:
    for index, card in enumerate(state.tarot.cards):
        if card.name == name:
            return index
    raise KeyError(name)


def give_cards(state: SoiState, seat: int, *names: str) -> list[int]:
    """Move the named cards into ``seat``'s hand, swapping out others so counts stay whole."""
    ids = [card_id(state, n) for n in names]
    for card in ids:
        for place in [state.deck, state.discard, *state.hands]:
            if card in place:
                place.remove(card)
        state.hands[seat].append(card)
    return ids


def set_hand(state: SoiState, seat: int, *names: str) -> list[int]:
    """Replace ``seat``'s hand by exactly the named cards (the old hand goes under the deck)."""
    old = list(state.hands[seat])
    state.hands[seat] = []
    state.deck[:0] = old
    return give_cards(state, seat, *names)


def act(state: SoiState, seat: int, key: str) -> tuple[SoiState, list[Event]]:
    choice = ENGINE.choice(state, seat, key)
    transition = ENGINE.apply(state, seat, choice.action)
    return transition.state, transition.events


def keys(state: SoiState, seat: int) -> list[str]:
    return [c.key for c in ENGINE.legal_actions(state, seat)]


def awaited_seat(state: SoiState) -> int | None:
    for prompt in ENGINE.prompts(state):
        if prompt.awaited:
            return prompt.seat
    return None


def public_texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.to is None]


def places(state: SoiState) -> list[int]:
    """Every card id in every place; each must appear exactly once (Reading and lingering included)."""
    found = list(state.deck) + list(state.discard) + [k.card for k in state.lingering]
    for hand in state.hands:
        found += hand
    for placement in state.reading:
        found += placement.cards
    for item in state.stack:
        found += getattr(item, "stars", [])
    return found


def check_invariants(state: SoiState) -> None:
    assert conserved(state) == (50, 16)
    assert all(e >= 0 for e in state.energy) and state.source_energy >= 0
    assert all(v >= 0 for v in state.scale.values())
    drawn = [t for i in state.stack if isinstance(i, Giving) for t in i.drawn]
    all_tokens = state.source_tokens + drawn + state.bags["shadow"] + state.bags["light"]
    assert Counter(all_tokens) == Counter(TOKENS)
    cards = places(state)
    assert sorted(cards) == list(range(len(state.tarot.cards))), Counter(cards).most_common(2)
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state


def check_choices(state: SoiState) -> None:
    prompts = ENGINE.prompts(state)
    if ENGINE.result(state) is None:
        assert any(p.awaited for p in prompts)
        assert sorted(p.seat for p in prompts) == list(range(state.players))
    for prompt in prompts:
        choices = ENGINE.legal_actions(state, prompt.seat)
        assert len(choices) < 300
        assert len({c.key for c in choices}) == len(choices)
        for choice in choices:
            assert CHOICE_KEY.match(choice.key) and len(choice.label) <= 80
            assert all(len(step) <= 100 for step in choice.steps)
        if prompt.awaited:
            assert choices, "an awaited seat must have something to do"
            default = ENGINE.default_action(state, prompt.seat)
            assert any(c.action == default for c in choices)


def after_step(state: Any, transition: Transition[Any]) -> None:
    after = transition.state
    check_invariants(after)
    check_choices(after)
    if ENGINE.result(after) is None:
        for text in public_texts(transition.events):
            assert not NAMES_ALIGNMENT.search(text), text


NAMES_ALIGNMENT = re.compile(r"Alignment|<seat:\d+>[^.]*\b(is|are|as)\s+(the\s+)?(Shadow|Light|Harmony)\b")


def set_energy(state: SoiState, seat: int, amount: int) -> None:
    """Set a player's Energy, taking from or returning to the source (conserved)."""
    state.source_energy -= amount - state.energy[seat]
    state.energy[seat] = amount


def set_scale(state: SoiState, shadow: int, light: int) -> None:
    state.source_energy -= shadow + light - state.scale["shadow"] - state.scale["light"]
    state.scale = {"shadow": shadow, "light": light}


def place(state: SoiState, slot: int, name: str, holder: int) -> int:
    """Put the named card on a Reading placement, held by ``holder``."""
    card = card_id(state, name)
    for where in [state.deck, state.discard, *state.hands]:
        if card in where:
            where.remove(card)
    state.reading[slot].cards.append(card)
    state.reading[slot].holder = holder
    return card


def fill_bag(state: SoiState, side: str, *values: int) -> None:
    for value in values:
        state.source_tokens.remove(value)
        state.bags[side].append(value)  # type: ignore[index]


def settle_now(state: SoiState) -> list[Event]:
    from engines.scales_of_influence.flow import settle

    events: list[Event] = []
    settle(state, events)
    return events


def at_reading(players: int = 4, seed: int = 1, **raw: Any) -> SoiState:
    """A game moved straight to the Reading phase with an empty Reading."""
    state = new_game(players, seed, **raw)
    state.phase, state.turn, state.reading_slot = "reading", None, 0
    return state


def at_weighing(players: int = 4, seed: int = 1, **raw: Any) -> SoiState:
    """A game at the Weighing, bags revealed, the Traveler to adjust the Scale."""
    state = new_game(players, seed, **raw)
    state.phase, state.turn, state.weigh_step, state.revealed = "weighing", None, "confirm", True
    return state
