"""Shared helpers and invariant checks for the Once Upon a Time… Life tests."""

from __future__ import annotations

from typing import Any

from engines.core import CHOICE_KEY, Event, Transition
from engines.once_upon_a_time_life import ENGINE, LifeOptions
from engines.once_upon_a_time_life.actions import ChoosePawn
from engines.once_upon_a_time_life.state import BOX, LifeState
from engines.once_upon_a_time_life.tokens import KINDS, Tokens

COUNTS = [2, 3, 4]


def options(**raw: Any) -> LifeOptions:
    parsed = ENGINE.parse_options(raw)
    assert isinstance(parsed, LifeOptions)
    return parsed


def new_game(players: int = 2, seed: int = 1, pawns: bool = True, **raw: Any) -> LifeState:
    """A new game where seat 0 starts (unless told otherwise). With ``pawns``
    every player has chosen a pawn, spread round the body (seat 0 the
    circulatory system, with two players seat 1 the digestive one)."""
    state = ENGINE.setup(players, options(**{"random_first": False, **raw}), seed)
    while pawns and state.stage == "pawn":
        system = state.board.system[state.turn * len(state.board.system) // players].id
        pawn = next(p for p in state.free_pawns() if p.system == system)
        state = ENGINE.apply(state, state.turn, ChoosePawn(pawn=pawn.id)).state
    return state


def check_invariants(state: LifeState) -> None:
    for kind in KINDS:
        held = state.bank.of(kind) + sum(p.of(kind) for p in state.purses)
        assert held == BOX.of(kind), f"{kind} tokens are lost or invented"
        assert state.bank.of(kind) >= 0 and all(p.of(kind) >= 0 for p in state.purses)
    chance = [*state.chance, *(c for hand in state.hands for c in hand)]
    if state.challenge is not None:
        chance += state.challenge.cards
    assert sorted(chance) == list(range(len(state.chance_cards))), "a Chance card is lost or doubled"
    assert sorted(state.bad_luck) == list(range(len(state.bad_luck_cards))), "a Bad Luck card is lost"
    for hand in state.hands:
        assert all(state.card("chance", c).keep for c in hand), "only Master and Virus cards are kept"
    assert all(s >= 0 for s in state.skips)
    for pile in (state.easy_pile, state.hard_pile):
        assert len(set(pile)) == len(pile), "a question is twice in its pile"
    assert (state.stage == "answer") == (state.question is not None)
    fighting = state.stage in ("respond", "spoils") or (
        state.stage == "answer"
        and state.question is not None
        and state.question.purpose in ("attack", "counter")
    )
    assert fighting == (state.challenge is not None)
    chosen = [p for p in state.pawns if p is not None]
    assert len(set(chosen)) == len(chosen), "two players play one pawn"
    assert (state.stage == "pawn") == (len(chosen) < state.players)
    for seat, pawn in enumerate(state.pawns):
        spec = state.pawn(seat)
        if pawn is not None:
            assert spec is not None and state.board.system[state.systems[seat]].id == spec.system
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state, "the state does not round-trip"


def check_choices(state: LifeState) -> None:
    prompted = {p.seat for p in ENGINE.prompts(state)}
    for seat in range(state.players):
        found = ENGINE.legal_actions(state, seat)
        keys = [c.key for c in found]
        assert len(set(keys)) == len(keys), "two choices share a key"
        paths = [tuple(c.steps) for c in found]
        assert len(set(paths)) == len(paths), f"two choices share one menu path: {paths}"
        for choice in found:
            assert CHOICE_KEY.match(choice.key)
            assert len(choice.label) <= 80, choice.label
        assert bool(found) == (seat in prompted)


def after_step(state: Any, transition: Transition[Any]) -> None:
    check_invariants(transition.state)


def purse(state: LifeState, seat: int, **counts: int) -> None:
    """Set ``seat``'s tokens exactly (the difference comes from or goes to the bank)."""
    wanted = Tokens(**counts)
    for kind in KINDS:
        state.bank.add(kind, state.purses[seat].of(kind) - wanted.of(kind))
    state.purses[seat] = wanted


def keep(state: LifeState, seat: int, card_id: str) -> int:
    """Move a Chance card of this design from the deck into ``seat``'s hand."""
    card = next(c for c in state.chance if state.chance_cards[c] == card_id)
    state.chance.remove(card)
    state.hands[seat].append(card)
    return card


def top(state: LifeState, deck: str, card_id: str) -> None:
    """Put a card of this design on top of a deck."""
    pile = state.chance if deck == "chance" else state.bad_luck
    names = state.chance_cards if deck == "chance" else state.bad_luck_cards
    card = next(c for c in pile if names[c] == card_id)
    pile.remove(card)
    pile.insert(0, card)


def act(state: LifeState, seat: int, key: str) -> tuple[LifeState, list[Event]]:
    choice = ENGINE.choice(state, seat, key)
    transition = ENGINE.apply(state, seat, choice.action)
    check_invariants(transition.state)
    return transition.state, transition.events


def keys(state: LifeState, seat: int) -> list[str]:
    return [c.key for c in ENGINE.legal_actions(state, seat)]


def answer(state: LifeState, right: bool) -> tuple[LifeState, list[Event]]:
    """The answerer of the open question answers right, or wrong."""
    assert state.question is not None
    correct = state.question.correct
    pick = correct if right else (correct + 1) % 4
    return act(state, state.question.answerer, f"answer:{pick}")


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def land_on(state: LifeState, seat: int, kind: str, roll: int = 1) -> None:
    """Place ``seat``'s pawn ``roll`` spaces before the first space of ``kind``
    and make the next die show ``roll`` (the seed is searched)."""
    board = state.board
    target = next(i for i in range(board.size) if board.kind(i) == kind)
    state.position[seat] = (target - roll) % board.size
    state.away[seat] = None
    force_die(state, roll)


def force_die(state: LifeState, roll: int) -> None:
    """Make the next die roll show ``roll`` by moving the seed."""
    for seed in range(10_000):
        probe = state.rng.model_copy(update={"seed": seed})
        if probe.below(6) + 1 == roll:
            state.rng.seed = seed
            return
    raise AssertionError("no seed rolls that")
