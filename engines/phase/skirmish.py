"""The Attack step's declarations and the resolution of a skirmish."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.phase import effects
from engines.phase.state import KINDS, PhState, Skirmish


def may_attack(state: PhState) -> list[int]:
    """Warriors the active player may still send: in play, unlocked, not sent yet."""
    sent = {s.attacker for s in state.skirmishes}
    return [c for c in state.play[state.turn] if not state.is_locked(c) and c not in sent]


def may_oppose(state: PhState, seat: int, card: int, fight: Skirmish) -> bool:
    """Whether ``seat``'s warrior ``card`` may be declared against ``fight``'s attacker.

    The attacked player defends an attack on them; only the chosen defender of
    the Nexus defends it, except Ally warriors, which may always. Never against
    a warrior of the same alignment (unless a Turncoat: the card overrules).
    """
    if state.is_locked(card) or card in state.defending():
        return False
    if fight.at is None:
        if seat != state.nexus_defender and "ally" not in state.flags(card):
            return False
    elif fight.at != seat:
        return False
    same = state.side(card).alignment == state.side(fight.attacker).alignment
    return not same or "turncoat" in state.flags(card)


def oppositions(state: PhState, seat: int) -> list[tuple[int, Skirmish]]:
    return [
        (card, fight)
        for fight in state.skirmishes
        for card in state.play[seat]
        if may_oppose(state, seat, card, fight)
    ]


def next_declarer(state: PhState, after: int) -> int | None:
    """The next player clockwise (after ``after``, never the active player) who
    may declare a defender; whether one may depends only on what is in play."""
    seat = after
    for _ in range(state.players):
        seat = (seat + 1) % state.players
        if seat == state.turn:
            return None
        if oppositions(state, seat):
            return seat
    return None


def _strike(state: PhState, fight: Skirmish, strikers: list[int]) -> list[Event]:
    """The strikers deal their damage at once. An attacker's damage goes to its
    defenders in the order they were declared, each given what destroys it
    before the next; each defender's goes to the attacker. Negative attack deals none."""
    hits: dict[int, int] = {}
    for card in strikers:
        power = state.attack(card)
        if power <= 0:
            continue
        if card == fight.attacker:
            targets = list(fight.defenders)
            for i, defender in enumerate(targets):
                need = max(0, state.defense(defender) - state.damage.get(defender, 0))
                dealt = power if i == len(targets) - 1 else min(power, need)
                if dealt:
                    hits[defender] = hits.get(defender, 0) + dealt
                power -= dealt
                if power <= 0:
                    break
        else:
            hits[fight.attacker] = hits.get(fight.attacker, 0) + power
    events = []
    for card, amount in hits.items():
        state.damage[card] = state.damage.get(card, 0) + amount
        events.append(Event(text=f"{state.name(card)} takes {amount} damage."))
    return events + effects.check_destroyed(state)


def resolve(state: PhState, fight: Skirmish) -> list[Event]:
    """Skirmish resolution: Swift warriors strike first, then the rest; an
    attacker without defenders strikes the Nexus or the attacked player; a
    surviving attacker goes home and phases."""
    attacker = fight.attacker
    me = state.turn
    events: list[Event] = []
    alive = any(attacker in w for w in state.play)
    if alive and fight.defenders:
        for swift in (True, False):
            if not any(attacker in w for w in state.play) or not fight.defenders:
                break  # the Swift strike already settled it
            fighters = [
                c
                for c in [attacker, *fight.defenders]
                if any(c in w for w in state.play) and ("swift" in state.flags(c)) == swift
            ]
            if swift and fighters:
                events.append(Event(text="Swift warriors strike first."))
            events += _strike(state, fight, fighters)
    elif alive:
        power = max(0, state.attack(attacker))
        kind = state.side(attacker).alignment
        if fight.at is None:
            events.append(Event(text=f"{state.name(attacker)} strikes the Nexus unopposed for {power}."))
            events += effects.gain(state, me, kind, power) if power else []
        else:
            events.append(
                Event(text=f"{state.name(attacker)} strikes {seat_ref(fight.at)} unopposed for {power}.")
            )
            events += effects.lose(state, fight.at, kind, power) if power else []
    fight.done = True
    if any(attacker in w for w in state.play) and not state.is_locked(attacker):
        events.append(Event(text=f"{state.name(attacker)} goes home."))
        events += effects.phase(state, attacker)
    return events


def influence_line(state: PhState) -> str:
    return " · ".join(f"{kind} {state.nexus[i]}" for i, kind in enumerate(KINDS))
