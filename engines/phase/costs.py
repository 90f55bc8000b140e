"""Costs and choices of an action, one card at a time.

An action (an order, a skill, a training) is set up as a :class:`Pending`: X
first when the cost is "lock X", then each resource to lock, then each one to
phase, then the warriors it chooses. Nothing happens until the last choice;
then the cost is paid in the order listed (locks, then phases, then
influence) and the effects are done as far as possible. A resource is used
once per cost, a locked one cannot phase, a card never pays its own training.
"""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.phase import effects
from engines.phase.cards import Ability
from engines.phase.state import KINDS, Pending, PhState


def resources(state: PhState, seat: int, exclude: tuple[int, ...] = ()) -> list[int]:
    """The resources a cost may use: unlocked cards in the barracks."""
    return [c for c in state.barracks[seat] if not state.is_locked(c) and c not in exclude]


def ability(state: PhState, pending: Pending) -> Ability | None:
    if pending.kind == "order":
        return state.side(pending.card, flipped=True).order  # the side facing its player
    if pending.kind == "skill":
        return state.side(pending.card).skill
    return None


def lock_need(state: PhState, pending: Pending) -> int:
    found = ability(state, pending)
    if found is None:
        return 0
    return (pending.x or 0) if found.x else found.lock


def phase_need(state: PhState, pending: Pending) -> int:
    found = ability(state, pending)
    return state.side(pending.card).cost if found is None else found.phase


def can_pay(
    state: PhState,
    seat: int,
    found: Ability | None,
    *,
    training: int | None = None,
    exclude: tuple[int, ...] = (),
) -> bool:
    """Whether the whole cost can be paid now (an unpayable action may not be taken)."""
    free = len(resources(state, seat, exclude))
    if found is None:
        return training is not None and free >= training
    if found.lose and state.influence[seat][KINDS.index(found.lose)] < 1:
        return False
    return free >= found.lock + found.phase + (1 if found.x else 0)


def candidates(state: PhState, pending: Pending) -> list[int]:
    """The warriors the action may still choose. A player cannot choose their own
    locked warriors, unless the action unlocks them (``ready``: "If a card ever
    contradicts the rulebook, the card's text takes precedence"); a locked
    warrior cannot phase; in a skirmish only its warriors may be chosen."""
    found = ability(state, pending)
    if found is None or not (found.choose or found.x):
        return []
    seat = pending.seat
    fight = state.in_skirmish()
    chosen = [e.do for e in found.effects if e.target == "chosen"]
    phasing, readying = "phase" in chosen, "ready" in chosen
    out = []
    for owner in range(state.players):
        for card in state.play[owner]:
            if card in pending.targets or (fight and card not in fight):
                continue
            if state.is_locked(card) and not readying and (owner == seat or phasing):
                continue
            whom = found.whom
            if (whom == "own" and owner != seat) or (whom == "enemy" and owner == seat):
                continue
            if whom == "attacking" and card not in state.attacking():
                continue
            if whom == "defending" and card not in state.defending():
                continue
            out.append(card)
    return out


def target_need(state: PhState, pending: Pending) -> int:
    found = ability(state, pending)
    if found is None:
        return 0
    return (pending.x or 0) if found.x else found.choose


def stage(state: PhState, pending: Pending) -> str:
    """What the pending action needs next: x, lock, phase, choose or done."""
    found = ability(state, pending)
    if found is not None and found.x and pending.x is None:
        return "x"
    if len(pending.locked) < lock_need(state, pending):
        return "lock"
    if len(pending.phased) < phase_need(state, pending):
        return "phase"
    if len(pending.targets) < target_need(state, pending) and candidates(state, pending):
        return "choose"
    return "done"


def usable(state: PhState, pending: Pending) -> list[int]:
    """Resources the next lock or phase may use."""
    exclude = (pending.card, *pending.locked, *pending.phased)
    return resources(state, pending.seat, exclude)


def complete(state: PhState) -> list[Event]:
    """Pay the cost and carry out the action once nothing is left to choose."""
    pending = state.pending
    if pending is None or stage(state, pending) != "done":
        return []
    state.pending = None
    seat, card = pending.seat, pending.card
    me = seat_ref(seat)
    found = ability(state, pending)
    events: list[Event] = []
    for resource in pending.locked:
        state.locked.append(resource)
    if pending.locked:
        events.append(Event(text=f"{me} locks {_names(state, pending.locked)}."))
    if pending.phased:
        events.append(Event(text=f"{me} phases {_names(state, pending.phased)} to pay."))
    for resource in pending.phased:
        events += effects.phase(state, resource)
    if found is not None and found.lose:
        events += effects.lose(state, seat, found.lose, 1)
    if pending.kind == "train":
        state.barracks[seat].remove(card)
        state.play[seat].append(card)
        side = state.side(card)
        events.append(Event(text=f"{me} trains {side.title} ({side.attack}/{side.defense}) into play."))
        if side.trained:
            events.append(Event(text=f"Trained — {side.title}."))
            events += effects.run(state, seat, side.trained, card, [])
        return events
    assert found is not None
    chosen = ", ".join(state.name(c) for c in pending.targets)
    on = f" on {chosen}" if chosen else ""
    if pending.kind == "order":
        state.hands[seat].remove(card)
        state.face[card] ^= 1  # revealed: the order's side is the one up from now on
        events.append(Event(text=f"{me} plays the order of {state.name(card)}{on}: {found.text()}"))
        events += effects.resolve_ability(state, seat, found, None, pending.targets, is_order=True)
        state.discards[seat].append(card)
        return events
    state.used.append(card)
    events.append(Event(text=f"{me} uses the skill of {state.name(card)}{on}: {found.text()}"))
    return events + effects.resolve_ability(state, seat, found, card, pending.targets, is_order=False)


def _names(state: PhState, cards: list[int]) -> str:
    return ", ".join(state.name(c) for c in cards)
