"""The quick moves of a bot's simulated rounds: gather Noble animals toward
sets of three, shed Corrupted animals and Ability cards (each counts against
its holder), bank a Corrupted set when it can, steal from the player ahead and
give away what hurts. In Restore the Balance the same sums aim at 0. Never an
idle move: a swap of its own cards changes nothing for the score."""

from __future__ import annotations

import random
from collections import Counter

from engines import sampling
from engines.core import Choice, Seat
from engines.spheres_of_life import actions
from engines.spheres_of_life.scoring import BANKED_CORRUPTED, BANKED_NOBLE, SET_SIZE, animal_points, score
from engines.spheres_of_life.state import SolState


class Hands:
    """Card counts and points of the seats a quick move looks at, each read
    once and only when asked (a quick move runs thousands of times a decision)."""

    def __init__(self, state: SolState) -> None:
        self.state = state
        self.balance = state.options.goal == "balance"
        self._counts: dict[Seat, Counter[str]] = {}
        self._points: dict[Seat, int] = {}

    def count(self, seat: Seat, kind: str) -> int:
        if seat not in self._counts:
            self._counts[seat] = Counter(self.state.kind(c) for c in self.state.hands[seat])
        return self._counts[seat][kind]

    def points(self, seat: Seat) -> int:
        if seat not in self._points:
            self._points[seat] = score(self.state, seat) + self.state.match_scores[seat]
        return self._points[seat]

    def card_points(self, seat: Seat, kind: str, change: int) -> int:
        """How the hand's points change when ``change`` (+1/-1) cards of ``kind`` come or go."""
        group = self.state.deck_spec.group(kind)
        if group == "ability":
            return -change
        if group == "hero":
            return 0
        held = self.count(seat, kind)
        delta = animal_points(max(0, held + change)) - animal_points(held)
        return delta if group == "noble" else -delta

    def worth(self, seat: Seat, delta: float) -> float:
        """What a change of ``delta`` points is worth to ``seat``: more is better,
        or in Restore the Balance, nearer 0."""
        if self.balance:
            now = self.points(seat)
            return abs(now) - abs(now + delta)
        return delta

    def gain(self, seat: Seat, kind: str) -> float:
        return self.worth(seat, self.card_points(seat, kind, 1))

    def loss(self, seat: Seat, kind: str) -> float:
        """What giving up one card of ``kind`` is worth (positive: good riddance)."""
        return self.worth(seat, self.card_points(seat, kind, -1))

    def leader_gap(self, seat: Seat, other: Seat) -> float:
        return (self.points(other) - self.points(seat)) / 10


def quick_move(state: SolState, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
    hands = Hands(state)
    return sampling.best(choices, lambda c: _worth(hands, seat, c.action, rng), rng)


def _worth(hands: Hands, seat: Seat, action: object, rng: random.Random) -> float:
    state = hands.state
    if isinstance(action, actions.Reorder):
        return -100.0  # idle: the score never changes by it
    if isinstance(action, (actions.Pick, actions.Take)):
        return hands.gain(seat, state.kind(action.card))
    if isinstance(action, actions.Discard):
        # Shed what counts against the hand; keep what counts for it.
        return hands.loss(seat, state.kind(action.card)) - 0.1
    if isinstance(action, actions.Bank):
        group = state.deck_spec.group(action.animal)
        held = hands.count(seat, action.animal)
        before = animal_points(held) * (1 if group == "noble" else -1)
        after = animal_points(held - SET_SIZE) * (1 if group == "noble" else -1)
        banked = BANKED_NOBLE if group == "noble" else BANKED_CORRUPTED
        # A banked set can no longer be stolen: a little for the safety.
        return hands.worth(seat, after + banked - before) + 1.0
    if isinstance(action, actions.Steal):
        if action.card is not None:
            seen = state.kind(action.card)
            return hands.gain(seat, seen) - hands.loss(action.target, seen) / 2
        return 0.5 + hands.leader_gap(seat, action.target)
    if isinstance(action, actions.Gift):
        kind = state.kind(action.card)
        return hands.loss(seat, kind) - hands.gain(action.target, kind) / 2 - 0.5
    if isinstance(action, actions.Offer):
        return 0.0
    if isinstance(action, actions.Want):
        offer = state.dream.offer if state.dream is not None else None
        given = hands.loss(seat, state.kind(offer)) if offer is not None else 0.0
        return hands.gain(seat, action.wanted) + given
    if isinstance(action, actions.Accept):
        return _accept_worth(hands, seat)
    if isinstance(action, actions.Block):
        return 1.0 if _aimed_at(state, seat) else -1.0
    if isinstance(action, actions.Play):
        # An Ability card counts -1 in hand: playing it now and then is fine.
        return rng.random() - 0.6
    if isinstance(action, actions.Cancel):
        return -1.0
    return 0.0  # pass, done, decline, a Hero, a throw, a look, a place


def _accept_worth(hands: Hands, seat: Seat) -> float:
    state = hands.state
    dream = state.dream
    if dream is None or dream.exchange is None:
        return 0.0
    offered = state.kind(dream.exchange.card)
    return hands.gain(seat, offered) + hands.loss(seat, dream.exchange.wanted)


def _aimed_at(state: SolState, seat: Seat) -> bool:
    """Whether the play or Dream Action waiting for Blocks is against ``seat``."""
    if state.pending is not None:
        return state.pending.target == seat and state.pending.owner != seat
    action = state.dream.action if state.dream is not None else None
    return action is not None and action.kind == "steal" and action.target == seat
