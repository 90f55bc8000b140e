"""The quick moves of a bot's simulated days: every seat pushes the Scale its
own alignment's way — Shadow and Light toward their side, Harmony toward
level — spends Energy only where it moves the Scale, and keeps its Shooting
Stars and its Energy rather than throw them away."""

from __future__ import annotations

import random

from engines import sampling
from engines.core import Choice, Seat
from engines.scales_of_influence import actions
from engines.scales_of_influence.state import Effect, Side, SoiState

# What each sided effect step does to the chosen side, per unit of its
# amount: a move takes from it and gives to the other (twice the swing).
SIDED: dict[str, float] = {
    "scale_add": 1.0,
    "blind_token": 0.5,
    "scale_remove": -1.0,
    "scale_move": -2.0,
    "switch_token": -1.0,
}


def quick_move(state: SoiState, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
    lean = _lean(state)
    return sampling.best(choices, lambda c: _worth(state, seat, c.action, lean), rng)


def _lean(state: SoiState) -> int:
    """How far Shadow is ahead, counting what the bags will add at the Weighing."""
    shadow = state.scale["shadow"] + sum(state.bags["shadow"])
    return shadow - (state.scale["light"] + sum(state.bags["light"]))


def gain(state: SoiState, seat: Seat, side: Side, amount: float, lean: int) -> float:
    """What ``amount`` more Energy on ``side`` (less, when negative) is worth to
    ``seat``'s alignment: Shadow and Light count their lead, Harmony how much
    nearer level the Scale comes."""
    alignment = state.alignments[seat]
    if alignment == "harmony":
        shift = amount if side == "shadow" else -amount
        return abs(lean) - abs(lean + shift)
    return amount if alignment == side else -amount


def _worth(state: SoiState, seat: Seat, action: object, lean: int) -> float:
    if isinstance(action, actions.PickToken):
        return gain(state, seat, action.side, action.value, lean)
    if isinstance(action, actions.Resolve):
        return _resolve_worth(state, seat, action, lean)
    if isinstance(action, actions.ShamanPower):
        if action.power == "scale" and action.side is not None:
            return gain(state, seat, action.side, 2, lean) - 0.5  # 2 Energy spent on it
        if action.power == "token" and action.side is not None and action.value is not None:
            return gain(state, seat, action.side, -action.value, lean) - 0.5
        return -1.0  # blocking a star it cannot read: keep the power
    if isinstance(action, actions.ChooseShaman):
        return 1.0 if state.alignments[action.seat] == state.alignments[seat] else 0.0
    if isinstance(action, actions.GiveInfluence):
        return 0.6  # the secret lever on the Scale
    if isinstance(action, actions.PlayCard):
        return 0.5
    if isinstance(action, actions.Receive):
        return 0.2 if action.how == "energy" else 0.3
    if isinstance(action, actions.Discard):
        # Discard the weakest card; keep Shooting Stars.
        card = state.card(action.card)
        return -(card.rank / 10) - (2.0 if card.star else 0.0)
    if isinstance(action, (actions.ShootingStar, actions.EclipseStar, actions.Eclipse)):
        return -0.5  # a card and an Energy for an effect the quick game cannot judge
    if isinstance(action, (actions.ChannelDraw, actions.ChannelTake, actions.ChannelClear)):
        return -0.5  # Energy and cards are worth keeping
    if isinstance(action, actions.Pass):
        return 0.0
    return 0.0


def _resolve_worth(state: SoiState, seat: Seat, action: actions.Resolve, lean: int) -> float:
    top = state.stack[-1] if state.stack else None
    if not isinstance(top, Effect):
        return 0.0
    value = 0.0
    if action.side is not None:
        for step in state.card(top.card).effect:
            value += gain(state, seat, action.side, SIDED.get(step.do, 0.0) * step.n, lean)
    if action.target is not None:
        # Take from, steal from or make discard a player of another alignment.
        value += -1.0 if state.alignments[action.target] == state.alignments[seat] else 1.0
        value += state.energy[action.target] / 10
    return value
