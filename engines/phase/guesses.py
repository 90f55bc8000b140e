"""A bot's guess at what it cannot see in Phase (for :meth:`Engine.determinize`).

Per player, every card whose designs the guessing seat has not fully seen is
dealt again among those same card ids: the cards in that player's deck and,
for another player, in their hand. A card of which one face is seen (a deck's
top, the outward face of another player's hand card) gets a design with that
face up; the rest of a deck get any design and a random face (a shuffle flips
cards at random). Designs never leave their player, so factions hold. Another
player's secret setup pick is drawn again from their hand.

Left as they are: the back sides of other players' cards in the barracks, in
play and in the discard pile (those cards were seen both ways as they were
played or phased, or their design follows from their face often enough that
a guess would add little)."""

from __future__ import annotations

import random

from engines.core import Seat
from engines.phase.cards import Side
from engines.phase.state import PhState
from engines.sampling import copy_state, fresh_rng


def guess(state: PhState, seat: Seat, rng: random.Random) -> PhState:
    world = copy_state(state)
    world.rng = fresh_rng(rng)
    shown = _shown(world)
    for player in range(world.players):
        deck = world.decks[player]
        seen = ([deck[-1]] if deck else []) + (world.hands[player] if player != seat else [])
        _redeal(world, sorted(set(seen) - shown), sorted(set(deck[:-1]) - shown), rng)
        # Another player's secret pick, while setup waits (a hand may later be empty).
        if world.step == "pick" and player != seat and world.picks[player] is not None:
            world.picks[player] = rng.choice(sorted(world.hands[player]))
    return world


def _shown(world: PhState) -> set[int]:
    """Cards named elsewhere in every view, wherever they lie now: an order
    being paid for (its inward face). A skirmish's warriors are named while in
    play, and a fallen attacker by the face it fell with, so a deck or hand
    they were shuffled or drawn into may be dealt again."""
    return {world.pending.card} if world.pending is not None else set()


def _redeal(world: PhState, seen: list[int], unseen: list[int], rng: random.Random) -> None:
    """Deal the designs of ``seen + unseen`` again, keeping each seen card's face."""
    faces: dict[int, Side] = {card: world.side(card) for card in seen}
    pool = sorted(world.cards[c] for c in [*seen, *unseen])
    rng.shuffle(pool)
    dealt: dict[int, tuple[str, int]] = {}
    # Each side of each design in the pool, by its title: a seen face is looked
    # up among the few sides of its title, not compared with every design's
    # sides once per seen card (most of a sample's cost when it was).
    by_title: dict[str, list[tuple[str, int, Side]]] = {}
    for design in set(pool):
        for i, side in enumerate(world.card_set.card(design).sides):
            by_title.setdefault(side.title, []).append((design, i, side))
    for card in seen:
        face = faces[card]
        showing: dict[str, list[int]] = {}
        for design, i, side in by_title.get(face.title, ()):
            if side == face:
                showing.setdefault(design, []).append(i)
        fits = [(at, i) for at, design in enumerate(pool) if design in showing for i in showing[design]]
        if not fits:
            return  # no consistent deal found this way: keep the cards as they are
        at, side_no = rng.choice(fits)
        dealt[card] = (pool.pop(at), side_no)
    for card in unseen:
        dealt[card] = (pool.pop(), rng.randrange(2))
    for card, (design, up) in dealt.items():
        world.cards[card], world.face[card] = design, up
