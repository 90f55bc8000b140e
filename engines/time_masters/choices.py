"""The legal moves of the seat whose turn it is, as menu choices. Labels name
the whole move; ``steps`` group them into menus (what to do, then which card)."""

from __future__ import annotations

from engines.core import Choice
from engines.time_masters import actions
from engines.time_masters.state import TmState


def _card(state: TmState, card: int) -> str:
    spec = state.spec(card)
    cost = f" ({spec.cost} Kè)" if spec.kind == "spell" else ""
    return f"{spec.name}{cost}"


def _distinct(state: TmState, cards: list[int]) -> list[int]:
    """One card of each design: copies of a card are interchangeable, so a menu
    offers each design once (two "Spark" entries would be one choice twice)."""
    first: dict[str, int] = {}
    for card in cards:
        first.setdefault(state.cards[card], card)
    return list(first.values())


def timer_name(state: TmState, seat: int, card: int) -> str:
    """A timer's name, numbered when the seat has two timers of one design."""
    same = [t.card for t in state.timers[seat] if state.cards[t.card] == state.cards[card]]
    name = state.name(card)
    return f"{name} #{same.index(card) + 1}" if len(same) > 1 and card in same else name


def timer_choices(state: TmState) -> list[Choice]:
    """Timer phase: every full timer must be activated or delayed, one at a time."""
    seat = state.turn
    timer = state.full_timers(seat)[0]
    name = timer_name(state, seat, timer.card)
    found = [
        Choice(
            key=f"activate:{timer.card}",
            label=f"Activate {name} and cast its spells this turn",
            steps=[f"Activate {name}"],
            action=actions.Activate(timer=timer.card),
        )
    ]
    for card in _distinct(state, state.hands[seat]):
        found.append(
            Choice(
                key=f"delay:{timer.card}:{card}",
                label=f"Delay {name} with {state.name(card)} (face down)",
                steps=[f"Delay {name}", f"With {state.name(card)}"],
                action=actions.Delay(timer=timer.card, card=card),
            )
        )
    return found


def main_choices(state: TmState) -> list[Choice]:
    seat = state.turn
    found: list[Choice] = []
    for card in _distinct(state, state.released):
        found.append(
            Choice(
                key=f"cast:{card}",
                label=f"Cast {state.name(card)} from the timer",
                steps=["Cast from the timer", state.name(card)],
                action=actions.Cast(card=card),
            )
        )
    open_timers = [t for t in state.timers[seat] if len(t.spells) < state.spec(t.card).capacity]
    for card in _distinct(state, state.hands[seat]):
        spec = state.spec(card)
        if spec.kind == "spell" and spec.cost <= state.ke[seat]:
            found.append(
                Choice(
                    key=f"cast:{card}",
                    label=f"Cast {_card(state, card)}",
                    steps=["Cast a spell", _card(state, card)],
                    action=actions.Cast(card=card),
                )
            )
        if spec.kind == "focus":
            found.append(
                Choice(
                    key=f"focus:{card}",
                    label=f"Play the focus {spec.name}",
                    steps=["Play a focus", spec.name],
                    action=actions.Focus(card=card),
                )
            )
        cap = state.options.max_timers
        if spec.kind == "timer" and (cap is None or len(state.timers[seat]) < cap):
            found.append(
                Choice(
                    key=f"timer:{card}",
                    label=f"Set the timer {spec.name}",
                    steps=["Set a timer", spec.name],
                    action=actions.SetTimer(card=card),
                )
            )
        elif spec.kind == "timer":
            # At the table's limit of timers (decision 3): never a stuck hand.
            found.append(
                Choice(
                    key=f"discard:{card}",
                    label=f"Discard the timer {spec.name} (no room to set it)",
                    steps=["Discard a timer", spec.name],
                    action=actions.DiscardTimer(card=card),
                )
            )
        if spec.kind == "spell" and spec.cost <= state.ke[seat]:
            for timer in open_timers:
                on = timer_name(state, seat, timer.card)
                found.append(
                    Choice(
                        key=f"load:{card}:{timer.card}",
                        label=f"Lay {_card(state, card)} on {on}",
                        steps=["Lay a spell on a timer", _card(state, card), f"On {on}"],
                        action=actions.Load(card=card, timer=timer.card),
                    )
                )
    if not state.acted and not state.activated:
        found.append(
            Choice(
                key="rest",
                label="Rest: pass the turn and recover all your Kè",
                steps=["Rest (recover all Kè)"],
                action=actions.Rest(),
            )
        )
    if not state.released:
        found.append(
            Choice(
                key="end-main",
                label="Go on to buying from the spheres",
                steps=["Go on to buying"],
                action=actions.EndMain(),
            )
        )
    return found


def access_choices(state: TmState) -> list[Choice]:
    found: list[Choice] = []
    for level, pile in enumerate(state.spheres, start=1):
        if level in state.bought_from:
            continue
        if pile and level <= state.access_points:
            top = state.name(pile[0])
            found.append(
                Choice(
                    key=f"buy:{level}",
                    label=f"Buy {top} from sphere {level} ({level} access)",
                    steps=["Buy a card", f"{top} (sphere {level})"],
                    action=actions.Buy(level=level),
                )
            )
        if len(pile) > 1 and level + 1 <= state.access_points:
            found.append(
                Choice(
                    key=f"buy:{level}:hidden",
                    label=f"Buy sphere {level}'s hidden card ({level + 1} access)",
                    steps=["Buy a card", f"Hidden card of sphere {level}"],
                    action=actions.Buy(level=level, hidden=True),
                )
            )
    # Alone, it says why: no card is within the turn's access.
    label = "End your turn" + ("" if found else ": nothing in reach")
    found.append(
        Choice(
            key="end-turn",
            label=f"{label} (discard played cards, refill your hand)",
            steps=["End the turn"],
            action=actions.EndTurn(),
        )
    )
    return found
