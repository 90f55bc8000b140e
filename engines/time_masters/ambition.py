"""The quick moves of a bot's simulated turns: cast what gives access points,
recover Kè only when it is spent, and buy from the highest sphere in reach."""

from __future__ import annotations

import random

from engines import sampling
from engines.core import Choice, Seat
from engines.time_masters.actions import Activate, Buy, Cast, Delay, Focus, Load, Rest, SetTimer
from engines.time_masters.state import TmState

# Worth of an effect beside the access point every spell gives.
EFFECT_WORTH = {"access": 1.0, "draw": 0.5, "gain_ke": 0.3, "refresh_ke": 0.3, "drain": 0.2, "disrupt": 0.2}


def quick_move(state: TmState, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
    return sampling.best(choices, lambda c: _worth(state, seat, c.action, rng), rng)


def _worth(state: TmState, seat: Seat, action: object, rng: random.Random) -> float:
    if isinstance(action, Activate):
        return 1.0  # a full timer is a big turn of access points: take it now
    if isinstance(action, Delay):
        return -float(state.spec(action.card).level)  # if ever, with the cheapest card
    if isinstance(action, Cast):
        if action.card in state.released:
            return 10.0  # must be cast this turn anyway
        spec = state.spec(action.card)
        return 5.0 - spec.cost / 10 + sum(EFFECT_WORTH.get(e.do, 0.0) * e.n for e in spec.effects)
    if isinstance(action, Focus):
        # Recovering Kè that is still there wastes the card.
        missing = state.options.ke - state.ke[seat]
        gain = sum(e.n for e in state.spec(action.card).effects if e.do == "gain_ke")
        return 6.0 if missing >= max(gain, 1) else 3.0 if missing > 0 else 0.5
    if isinstance(action, SetTimer):
        return 3.0
    if isinstance(action, Load):
        # Sometimes save spells for a big turn rather than cast them now.
        return 4.0 + 2 * rng.random()
    if isinstance(action, Rest):
        return 1.0 if state.ke[seat] == 0 else -1.0
    if isinstance(action, Buy):
        return 3.0 * action.level - (1.0 if action.hidden else 0.0)
    return 0.0  # going on to buying, ending the turn
