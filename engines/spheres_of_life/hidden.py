"""What the bots may guess: a full state dealt again from one seat's view, and
how a game cut off before its end stands."""

from __future__ import annotations

import random
from typing import get_args

from engines import sampling
from engines.core import Seat
from engines.spheres_of_life import effects
from engines.spheres_of_life.scoring import score
from engines.spheres_of_life.state import Shape, SolState


def determinize(state: SolState, seat: Seat, rng: random.Random) -> SolState:
    """Deal the Main Deck and the other hands again among themselves (keeping
    the cards ``seat`` is shown: an exchange on offer, a hand it is looking
    at, a card it has seen in another hand), and guess the others' secret Hero picks and throws."""
    world = sampling.copy_state(state)
    world.rng = sampling.fresh_rng(rng)
    shown = set(_shown(world, seat))
    unseen = [*world.deck, *(c for s in range(world.players) if s != seat for c in world.hands[s])]
    sampling.shuffle_kinds(world.cards, [c for c in unseen if c not in shown], rng)
    heroes = sorted({world.kind(c) for c in world.hero_pool})
    for other in range(world.players):
        if other == seat:
            continue
        if heroes:
            world.hero_picks[other] = [rng.choice(heroes) for _ in world.hero_picks[other]]
        if world.rps[other] is not None:
            world.rps[other] = rng.choice(get_args(Shape))
    return world


def _shown(state: SolState, seat: Seat) -> list[int]:
    # Cards it was shown in another hand (Blessed Cherry, a look at the whole
    # hand) stay what they are while it knows them: it may steal them by name.
    cards = [s.card for s in state.seen if s.looker == seat]
    dream = state.dream
    if dream is not None and dream.exchange is not None:
        cards.append(dream.exchange.card)
    pending = state.pending
    if pending is not None and pending.owner == seat and pending.started:
        step = effects.current_step(state)
        target = pending.target if pending.target is not None else seat
        cards += state.hands[target] if step is not None and step.do == "look_take" else pending.pool
    return cards


def evaluate(state: SolState) -> dict[Seat, float]:
    """Points so far (match points included); nearness to 0 in Restore the Balance."""
    points = [score(state, s) + state.match_scores[s] for s in range(state.players)]
    if state.options.goal == "balance":
        return sampling.lead([-abs(p) for p in points], 4.0)
    return sampling.lead(points, 6.0)
