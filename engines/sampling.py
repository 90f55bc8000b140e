"""Helpers games use to implement :meth:`Engine.determinize`,
:meth:`Engine.evaluate` and :meth:`Engine.rollout_choice`.

A sample must depend only on what the seat sees and on the sampler's ``rng``:
every pool of unknown things is put in a canonical (sorted) order before it is
shuffled, so two true states the seat cannot tell apart give the same sample.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from typing import Any

from engines.core import Choice, Rng, Seat


def fresh_rng(rng: random.Random) -> Rng:
    """A new state generator for a sample: the true one would tell the future."""
    return Rng(seed=rng.getrandbits(48))


def shuffle_kinds(kinds: MutableSequence[Any], ids: Iterable[int], rng: random.Random) -> None:
    """Deal the designs of the cards ``ids`` out again among those same ids.

    For games where a card id's design is ``kinds[id]``: every list that holds
    an id keeps it, so sizes, positions and every reference stay as they were,
    and only what the unseen cards are changes."""
    slots = sorted(set(ids))
    pool = sorted(kinds[i] for i in slots)
    rng.shuffle(pool)
    for card, kind in zip(slots, pool, strict=True):
        kinds[card] = kind


def redeal(piles: Sequence[MutableSequence[Any]], rng: random.Random) -> None:
    """Gather everything in ``piles``, shuffle it, and deal each pile back its size."""
    pool = sorted(item for pile in piles for item in pile)
    rng.shuffle(pool)
    for pile in piles:
        size = len(pile)
        pile[:], pool = pool[:size], pool[size:]


def lead(values: Sequence[float], scale: float) -> dict[Seat, float]:
    """A score in ``(0, 1)`` per seat from how far its value leads the best of
    the others (0.5: level; near 1: far ahead), for cut-off evaluations."""
    scores: dict[Seat, float] = {}
    for seat, value in enumerate(values):
        best_other = max((v for s, v in enumerate(values) if s != seat), default=value)
        scores[seat] = 0.5 + 0.5 * math.tanh((value - best_other) / scale)
    return scores


def best(choices: Sequence[Choice], worth: Callable[[Choice], float], rng: random.Random) -> Choice:
    """The choice ``worth`` rates highest, ties broken at random: the quick
    moves of a rollout policy (one pass over the choices, nothing copied)."""
    top = -math.inf
    found: list[Choice] = []
    for choice in choices:
        value = worth(choice)
        if value > top:
            top, found = value, [choice]
        elif value == top:
            found.append(choice)
    return found[0] if len(found) == 1 else rng.choice(found)
