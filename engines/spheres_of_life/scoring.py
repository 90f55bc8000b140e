"""Counting points: animals by kind (threes score 9, the rest its square),
banked sets (+6 Noble, +3 Corrupted), each Ability card in hand −1."""

from __future__ import annotations

from collections import Counter

from engines.spheres_of_life.state import SolState

SET_SIZE = 3
BANKED_NOBLE = 6
BANKED_CORRUPTED = 3


def animal_points(copies: int) -> int:
    """1→1, 2→4, 3→9, 4→10, 5→13: a set counts at most three cards."""
    return (copies // SET_SIZE) * SET_SIZE**2 + (copies % SET_SIZE) ** 2


def hand_breakdown(state: SolState, seat: int) -> dict[str, int]:
    """Points by card kind in the hand (abilities as one line per kind)."""
    spec = state.deck_spec
    counts = Counter(state.kind(c) for c in state.hands[seat])
    points: dict[str, int] = {}
    for kind, copies in counts.items():
        group = spec.group(kind)
        if group == "noble":
            points[kind] = animal_points(copies)
        elif group == "corrupted":
            points[kind] = -animal_points(copies)
        else:
            points[kind] = -copies
    return points


def banked_points(state: SolState, seat: int) -> int:
    kinds = [state.kind(c) for c in state.banked[seat][::SET_SIZE]]
    return sum(BANKED_NOBLE if state.deck_spec.group(k) == "noble" else BANKED_CORRUPTED for k in kinds)


def score(state: SolState, seat: int) -> int:
    return sum(hand_breakdown(state, seat).values()) + banked_points(state, seat)
