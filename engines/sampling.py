"""Helpers games use to implement :meth:`Engine.determinize`,
:meth:`Engine.evaluate` and :meth:`Engine.rollout_choice`.

A sample must depend only on what the seat sees and on the sampler's ``rng``:
every pool of unknown things is put in a canonical (sorted) order before it is
shuffled, so two true states the seat cannot tell apart give the same sample.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from engines.core import Choice, Rng, Seat

M = TypeVar("M", bound=BaseModel)
_ATOMS = (int, str, bool, float, type(None))


def copy_state(state: M) -> M:
    """An exact deep copy of a state, equal to ``state.model_copy(deep=True)``
    (shared parts stay shared, a deck whose copy is itself stays one), made
    without ``copy.deepcopy``'s generic dispatch, which was a good part of a
    sample's cost. Anything other than lists, dicts and plain models (a model
    with its own ``__deepcopy__``, a set…) is still copied by ``deepcopy``."""
    return _copy(state, {})  # type: ignore[no-any-return]


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    known = memo.get(id(value))
    if known is not None:
        return known
    # Lists and dicts of plain values (most of a state) are copied whole, and
    # only their other items one by one.
    if kind is list:
        out: Any = value.copy()
        memo[id(value)] = out
        for at, item in enumerate(out):
            if type(item) not in _ATOMS:
                out[at] = _copy(item, memo)
    elif kind is dict:
        out = value.copy()
        memo[id(value)] = out
        if not all(type(key) in _ATOMS and type(item) in _ATOMS for key, item in value.items()):
            out = {_copy(key, memo): _copy(item, memo) for key, item in value.items()}
            memo[id(value)] = out
    elif (
        isinstance(value, BaseModel)
        and kind.__deepcopy__ is BaseModel.__deepcopy__
        and value.__pydantic_private__ is None
        and value.__pydantic_extra__ is None
    ):
        # What BaseModel.__deepcopy__ does, for a model without private or extra values.
        model: type[BaseModel] = kind
        out = model.__new__(model)
        memo[id(value)] = out
        object.__setattr__(out, "__dict__", _copy(value.__dict__, memo))
        object.__setattr__(out, "__pydantic_extra__", None)
        object.__setattr__(out, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        object.__setattr__(out, "__pydantic_private__", None)
    else:
        out = copy.deepcopy(value, memo)
        memo[id(value)] = out
    return out


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
