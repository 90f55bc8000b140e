"""Who the game waits for now, how, and the prompt's public text.

Only public information decides it (the flow, the Reading, the stack of
interrupts, who is Shaman), so a prompt never tells what a hand or a bag holds.
"""

from __future__ import annotations

from typing import Literal

from engines.core import Seat
from engines.scales_of_influence.state import (
    Cosmic,
    Effect,
    Giving,
    Prevention,
    ShamanPick,
    SoiState,
    Tribute,
)

Kind = Literal["turn", "response", "secret"]


def awaited(state: SoiState) -> tuple[Seat, Kind, str] | None:
    """The one seat the game waits for, the prompt kind and its public text."""
    if state.phase == "over":
        return None
    if state.stack:
        return _awaited_interrupt(state)
    if state.phase == "sun" and state.turn is not None:
        return state.turn.seat, "turn", _SUN_TEXT[state.turn.step]
    if state.phase == "moon" and state.moon_order:
        return state.moon_order[0], "turn", "Moon: Eclipse a Reading card or pass."
    if state.phase == "weighing" and state.weigh_step == "confirm":
        return state.traveler, "turn", "Weighing: adjust the Scale by the revealed Influence."
    return None


_SUN_TEXT = {
    "receive": "Sun — Receive: draw a card or gain 1 Energy.",
    "release": "Sun — Release: play a Hand card to the Reading or Give Influence.",
    "after": "Sun — Channel or end the turn.",
    "discard": "Sun — discard down to 7 cards.",
}


def _awaited_interrupt(state: SoiState) -> tuple[Seat, Kind, str]:
    top = state.stack[-1]
    if isinstance(top, Effect):
        return top.owner, "turn", f"Resolve {state.card(top.card).short()}."
    if isinstance(top, Cosmic) and not top.responders:
        assert state.shaman is not None and top.shaman_turn
        return state.shaman, "response", "Cosmic Event: the Shaman may block the star before it shines."
    if isinstance(top, Cosmic):
        return top.responders[0], "response", "Cosmic Event: Eclipse the star on top or pass."
    if isinstance(top, Giving):
        return top.seat, "secret", "Give Influence: put one token in a bag, in secret."
    if isinstance(top, Tribute):
        return top.seat, "turn", "Channel: discard a card face up."
    if isinstance(top, Prevention):
        return top.remaining[0], "response", "Prevent the end: Shaman, Shooting Star or pass."
    assert isinstance(top, ShamanPick)
    return top.chooser, "turn", "Pick the Shaman among the tied players."
