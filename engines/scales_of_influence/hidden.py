"""What the bots may guess: a full state dealt again from one seat's view, and
how a day cut off before the end of the journey stands."""

from __future__ import annotations

import math
import random

from engines import sampling
from engines.core import Seat
from engines.scales_of_influence.state import SIDES, Giving, SoiState


def determinize(state: SoiState, seat: Seat, rng: random.Random) -> SoiState:
    """Deal again what ``seat`` cannot see: the deck and the other hands, the
    other alignments, and — until the Weighing reveals them — which token lies
    in which bag, in the source or in another giver's hand."""
    world = sampling.copy_state(state)
    world.rng = sampling.fresh_rng(rng)
    others = [s for s in range(world.players) if s != seat]
    sampling.redeal([world.deck, *(world.hands[s] for s in others)], rng)
    if world.phase != "over":
        dealt = [world.alignments[s] for s in others]
        sampling.redeal([dealt], rng)
        for other, alignment in zip(others, dealt, strict=True):
            world.alignments[other] = alignment
    if not world.revealed:
        _redeal_tokens(world, seat, rng)
    return world


def _redeal_tokens(world: SoiState, seat: Seat, rng: random.Random) -> None:
    # Who gave into which bag is secret, so even how full each bag is: the
    # given tokens are split between the bags afresh, by a coin per token.
    drawn = [i.drawn for i in world.stack if isinstance(i, Giving) and i.seat != seat]
    bagged = [*world.bags["shadow"], *world.bags["light"]]
    sampling.redeal([world.source_tokens, *drawn, bagged], rng)
    world.bags = {"shadow": [], "light": []}
    for token in bagged:
        world.bags[SIDES[rng.randrange(2)]].append(token)


def evaluate(state: SoiState) -> dict[Seat, float]:
    """The Scale as the bags would move it, for each alignment's goal: Shadow
    and Light want their side ahead, Harmony wants both sides level."""
    shadow = state.scale["shadow"] + sum(state.bags["shadow"])
    light = state.scale["light"] + sum(state.bags["light"])
    lead = shadow - light
    value = {
        "shadow": 0.5 + 0.5 * math.tanh(lead / 4),
        "light": 0.5 - 0.5 * math.tanh(lead / 4),
        "harmony": 0.5 + 0.5 * math.tanh((1.5 - abs(lead)) / 2),
    }
    return {s: value[a] for s, a in enumerate(state.alignments)}
