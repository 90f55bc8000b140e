"""Action rounds: the active player first, then clockwise, one action or a pass
each, until every player has passed in a row. A player who passed may act
again once someone else has acted. Every player is asked in turn whatever
they hold, so a round's length and order reveal nothing."""

from __future__ import annotations

from engines.phase.state import PhState, Round, Step

ROUND_STEPS: frozenset[str] = frozenset({"maneuver", "skirmish", "closing"})


def open_round(state: PhState, step: Step) -> None:
    state.step = step
    state.round = Round(seat=state.turn)


def advance(state: PhState, passed: bool) -> bool:
    """Move the opportunity on after one action or pass; True when the round ends."""
    current = state.round
    assert current is not None
    current.passes = current.passes + 1 if passed else 0
    if current.passes >= state.players:
        state.round = None
        return True
    current.seat = (current.seat + 1) % state.players
    return False
