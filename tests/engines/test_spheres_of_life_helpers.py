"""Shared checks for the Spheres of Life tests (imported by the other test files)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engines.core import CHOICE_KEY, Transition
from engines.spheres_of_life import ENGINE, SolOptions, SolState

VARIANTS: dict[str, dict[str, Any]] = {
    "standard": {},
    "pace": {"pace": True},
    "purist": {"purist": True},
    "balance": {"goal": "balance"},
    "big-table": {"decks": 2},
    "match": {"rounds": 2},
    "random-first": {"first_player": "random"},
    "pace-big-table": {"pace": True, "decks": 2},
}


def options(**raw: Any) -> SolOptions:
    parsed = ENGINE.parse_options(raw)
    assert isinstance(parsed, SolOptions)
    return parsed


def places(state: SolState) -> list[int]:
    """Every card id in every place; each id must appear exactly once."""
    found = state.deck + state.table + state.discard + state.hero_pool + state.in_play
    for seat in range(state.players):
        found += state.hands[seat] + state.banked[seat] + state.heroes[seat] + state.heroes_used[seat]
    return found


def assert_conserved(state: SolState) -> None:
    counted = Counter(places(state))
    assert sorted(counted) == list(range(len(state.cards))), "a card is missing or invented"
    assert all(n == 1 for n in counted.values()), "a card is in two places"
    for seat in range(state.players):
        banked = [state.kind(c) for c in state.banked[seat]]
        assert len(banked) % 3 == 0 and all(
            banked[i] == banked[i + 1] == banked[i + 2] for i in range(0, len(banked), 3)
        )


def view_uids(data: Any) -> set[int]:
    """Card ids shown anywhere in a dumped view."""
    if isinstance(data, dict):
        found = {data["uid"]} if "uid" in data else set()
        for value in data.values():
            found |= view_uids(value)
        return found
    if isinstance(data, list):
        return set().union(*(view_uids(v) for v in data)) if data else set()
    return set()


def visible_to(state: SolState, viewer: int | None) -> set[int]:
    seen = set(state.table + state.discard + state.in_play)
    for seat in range(state.players):
        seen |= set(state.heroes[seat] + state.heroes_used[seat] + state.banked[seat])
    if viewer is not None:
        seen |= set(state.hands[viewer])
        pending = state.pending
        if pending is not None and pending.owner == viewer:
            seen |= set(pending.pool)
            if pending.target is not None:
                seen |= set(state.hands[pending.target])
        if state.dream is not None and state.dream.offer is not None:
            seen.add(state.dream.offer)
    return seen


def check_choices(state: SolState) -> None:
    prompts = ENGINE.prompts(state)
    assert any(p.awaited for p in prompts), "no awaited prompt before the end"
    for prompt in prompts:
        found = ENGINE.legal_actions(state, prompt.seat)
        assert len(found) < 300
        keys = [c.key for c in found]
        assert len(keys) == len(set(keys)), f"duplicate keys {keys}"
        for choice in found:
            assert CHOICE_KEY.match(choice.key) and len(choice.label) <= 80, choice
            assert choice.steps and all(len(s) <= 100 for s in choice.steps)
        menus: dict[tuple[str, ...], set[str]] = {}
        for choice in found:
            for depth in range(len(choice.steps)):
                menus.setdefault(tuple(choice.steps[:depth]), set()).add(choice.steps[depth])
        assert all(len(options) <= 25 for options in menus.values()), "a menu with more than 25 options"
        if prompt.awaited:
            assert found, f"awaited seat {prompt.seat} has nothing to do"
            default = ENGINE.default_action(state, prompt.seat)
            assert any(c.action == default for c in found)


def check_views(state: SolState) -> None:
    for viewer in [None, *range(state.players)]:
        dumped = json.loads(ENGINE.view(state, viewer).model_dump_json())
        assert view_uids(dumped) <= visible_to(state, viewer), f"view of {viewer} shows hidden cards"


def full_check(previous: Any, transition: Transition[Any]) -> None:
    state = transition.state
    assert isinstance(state, SolState)
    assert_conserved(state)
    if ENGINE.result(state) is None:
        check_choices(state)
    check_views(state)


def light_check(previous: Any, transition: Transition[Any]) -> None:
    state = transition.state
    assert isinstance(state, SolState)
    assert_conserved(state)
    for event in transition.events:
        assert event.to is None or event.to, "an event told to nobody"


def test_built_in_deck_is_conserved_at_setup() -> None:
    for players in (2, 7):
        state = ENGINE.setup(players, options(), seed=1)
        assert_conserved(state)


# ----- building scenario states by hand -----


def fresh(players: int = 3, seed: int = 7, **raw: Any) -> SolState:
    """A game whose every card is back in the deck (Heroes in the pool), ready to be arranged.

    The whole deck, as a scenario may need any card: unless asked, none is left
    in the box at two or four players (RULES.md, Balance)."""
    state = ENGINE.setup(players, options(**{"trim": False, **raw}), seed=seed)
    spec = state.deck_spec
    state.deck = [c for c, k in enumerate(state.cards) if spec.group(k) != "hero"]
    state.hero_pool = [c for c, k in enumerate(state.cards) if spec.group(k) == "hero"]
    state.hands = [[] for _ in range(players)]
    state.heroes = [[] for _ in range(players)]
    state.hero_picks = [[] for _ in range(players)]
    state.stage, state.leader = "day", 0
    return state


def card_of(state: SolState, kind: str) -> int:
    """A card of ``kind`` still in the deck or the Hero pool (it is moved out by the caller)."""
    return next(c for c in state.deck + state.hero_pool if state.kind(c) == kind)


def give(state: SolState, seat: int, *kinds: str) -> list[int]:
    """Move cards of these kinds from the deck (or Hero pool) to ``seat``'s hand (or Heroes)."""
    moved = []
    for kind in kinds:
        card = card_of(state, kind)
        if card in state.hero_pool:
            state.hero_pool.remove(card)
            state.heroes[seat].append(card)
        else:
            state.deck.remove(card)
            state.hands[seat].append(card)
        moved.append(card)
    return moved


def to_dream(state: SolState, leader: int = 0, last: bool = False) -> SolState:
    from engines.spheres_of_life.phases import order_from
    from engines.spheres_of_life.state import Dream

    state.stage, state.leader, state.table, state.queue = "dream", leader, [], []
    state.dream = Dream(to_act=order_from(state, leader), last=last)
    return state


def keep_in_deck(state: SolState, count: int) -> None:
    """Leave only ``count`` cards in the deck (the rest go to the discard pile)."""
    state.discard.extend(state.deck[: len(state.deck) - count])
    state.deck = state.deck[len(state.deck) - count :]


def act(state: SolState, seat: int, key: str) -> tuple[SolState, list[Any]]:
    """Play the legal choice ``key`` for ``seat``; return the new state and the events."""
    choice = ENGINE.choice(state, seat, key)
    transition = ENGINE.apply(state, seat, choice.action)
    assert_conserved(transition.state)
    return transition.state, transition.events


def keys(state: SolState, seat: int) -> list[str]:
    return [c.key for c in ENGINE.legal_actions(state, seat)]


def nobody_blocks(state: SolState) -> tuple[SolState, list[Any]]:
    """Every seat passes the open Block window of a Dream Action, if one is open."""
    events: list[Any] = []
    while state.dream is not None and state.dream.action is not None and ENGINE.result(state) is None:
        state, more = act(state, state.dream.action.window[0], "pass")
        events += more
    return state, events


def act_unblocked(state: SolState, seat: int, key: str) -> tuple[SolState, list[Any]]:
    """Take a Dream Action and let its Block window close with nobody blocking."""
    state, events = act(state, seat, key)
    state, more = nobody_blocks(state)
    return state, events + more
