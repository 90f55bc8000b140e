"""Shared helpers and invariant checks for the Phase tests."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from engines.core import CHOICE_KEY, Event, Transition
from engines.phase import ENGINE, PhOptions, parse_deck
from engines.phase.state import KINDS, PhState

COUNTS = [2, 3]

# A small custom set: its Twin cards share their good side (secrecy tests).
CUSTOM = (Path(__file__).parent / "test_phase_twins.toml").read_text(encoding="utf-8")

DECKS = ["builtin", "custom"]


def options(**raw: Any) -> PhOptions:
    parsed = ENGINE.parse_options(raw)
    assert isinstance(parsed, PhOptions)
    return parsed


def deck_options(deck: str, **raw: Any) -> PhOptions:
    if deck == "custom":
        raw = {"deck": parse_deck(CUSTOM).model_dump(), "deck_size": 16, **raw}
    return options(**raw)


def new_game(players: int = 2, seed: int = 1, **raw: Any) -> PhState:
    return ENGINE.setup(players, options(**raw), seed)


def places(state: PhState) -> list[int]:
    found: list[int] = []
    for seat in range(state.players):
        found += (
            state.decks[seat]
            + state.hands[seat]
            + state.barracks[seat]
            + state.play[seat]
            + state.discards[seat]
        )
    return found


def check_invariants(state: PhState) -> None:
    counts = Counter(places(state))
    assert sorted(counts) == list(range(len(state.cards))), "a card is lost or invented"
    assert all(n == 1 for n in counts.values()), f"a card is in two places: {counts.most_common(2)}"
    start = state.options.influence * state.players
    for k, kind in enumerate(KINDS):
        held = sum(state.influence[s][k] for s in range(state.players))
        assert state.nexus[k] + held + state.removed[k] == start, f"{kind} influence is not conserved"
        assert state.nexus[k] >= 0 and all(state.influence[s][k] >= 0 for s in range(state.players))
    assert all(f in (0, 1) for f in state.face)
    in_play = {c for warriors in state.play for c in warriors}
    assert set(state.damage) <= in_play and set(state.mods) <= in_play
    assert set(state.locked) <= in_play | {c for b in state.barracks for c in b}
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state, "the state does not round-trip"


def check_choices(state: PhState) -> None:
    prompted = {p.seat for p in ENGINE.prompts(state)}
    for seat in range(state.players):
        found = ENGINE.legal_actions(state, seat)
        keys = [c.key for c in found]
        assert len(set(keys)) == len(keys), f"two choices share a key: {keys}"
        paths = [tuple(c.steps) for c in found]
        assert len(set(paths)) == len(paths), f"two choices share one menu path: {paths}"
        for choice in found:
            assert CHOICE_KEY.match(choice.key)
            assert len(choice.label) <= 80, choice.label
        if seat not in prompted:
            assert not found
        else:
            assert found, "a prompted seat has nothing to do"


def after_step(state: Any, transition: Transition[Any]) -> None:
    check_invariants(transition.state)


def act(state: PhState, seat: int, key: str) -> tuple[PhState, list[Event]]:
    choice = ENGINE.choice(state, seat, key)
    transition = ENGINE.apply(state, seat, choice.action)
    return transition.state, transition.events


def keys(state: PhState, seat: int) -> list[str]:
    return [c.key for c in ENGINE.legal_actions(state, seat)]


def card_of(state: PhState, design: str, exclude: tuple[int, ...] = ()) -> int:
    for card, name in enumerate(state.cards):
        if name == design and card not in exclude:
            return card
    raise KeyError(design)


def take(state: PhState, card: int) -> None:
    """Lift a card out of wherever it lies."""
    for zone in (state.decks, state.hands, state.barracks, state.play, state.discards):
        for pile in zone:
            if card in pile:
                pile.remove(card)
    if card in state.locked:
        state.locked.remove(card)


def put(state: PhState, seat: int, zone: str, title: str) -> int:
    """Put a card showing ``title`` (up, or facing its player in hand) into ``seat``'s zone.

    The card comes from anywhere in the game, any design with a side of that title.
    """
    used = set(places_in(state, "play") + places_in(state, "barracks") + places_in(state, "hands"))
    for card, design in enumerate(state.cards):
        if card in used:
            continue
        sides = [s.title for s in state.card_set.card(design).sides]
        if title in sides:
            take(state, card)
            side = sides.index(title)
            state.face[card] = side ^ 1 if zone == "hands" else side
            getattr(state, zone)[seat].append(card)
            return card
    raise KeyError(title)


def places_in(state: PhState, zone: str) -> list[int]:
    return [c for pile in getattr(state, zone) for c in pile]


def table(players: int = 2, seed: int = 1, **raw: Any) -> PhState:
    """A game past setup, every zone emptied into the decks: a scenario's blank table."""
    raw = {"deck_size": 100, "factions": ["fengarian", "keeper", "sun-dominion"][:players], **raw}
    state = new_game(players, seed, **raw)
    for seat in range(players):
        state.decks[seat] += state.hands[seat]
        state.hands[seat] = []
    state.picks = [0] * players
    state.step = "training"
    state.turn = state.first = 0
    return state


def pass_round(state: PhState) -> PhState:
    """Everyone passes until the action round ends."""
    while state.round is not None and state.pending is None:
        state, _ = act(state, state.round.seat, "pass")
    return state


def fight(state: PhState, sends: list[tuple[int, int | None]], opposes: list[tuple[int, int]]) -> PhState:
    """From the Attack step: attack, pass Maneuvering, send, declare defenders."""
    state, _ = act(state, state.turn, "attack")
    state = pass_round(state)
    for card, at in sends:
        state, _ = act(state, state.turn, f"send:{card}:{'nexus' if at is None else at}")
    state, _ = act(state, state.turn, "done")
    for card, attacker in opposes:
        assert state.declaring is not None
        state, _ = act(state, state.declaring, f"oppose:{card}:{attacker}")
    while state.step == "defenders":
        assert state.declaring is not None
        state, _ = act(state, state.declaring, "done")
    return state


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events if e.to is None)
