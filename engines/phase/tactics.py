"""The quick moves of a bot's simulated turns: train warriors, send them where
an unopposed strike takes influence, oppose the attacks that would take it,
finish what is being paid for, and pass action rounds rather than spend
resources on orders and skills the quick game cannot judge."""

from __future__ import annotations

import random

from engines import sampling
from engines.core import Choice, Seat
from engines.phase import skirmish
from engines.phase.actions import Attack, Cancel, Done, Oppose, Order, Pick, Send, Skill, Train
from engines.phase.state import KINDS, PhState


def quick_move(state: PhState, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
    return sampling.best(choices, lambda c: _worth(state, seat, c.action, rng), rng)


def counts(action: object) -> bool:
    """Whether a quick move counts toward the rollout depth: the moves that
    change the board (a card picked, an attack, a warrior sent or opposing, a
    warrior trained, an order or a skill). A pass, a declaration finished, a
    skirmish chosen, a cost paid card by card go free: at three players a turn
    holds half again as many of them as at two, and a depth counted in all
    moves ended a simulated attack before any warrior struck."""
    return isinstance(action, (Pick, Attack, Send, Oppose, Train, Order, Skill))


def _worth(state: PhState, seat: Seat, action: object, rng: random.Random) -> float:
    if isinstance(action, Pick):
        return -float(state.side(action.card, flipped=True).cost)  # cheap to train soon
    if isinstance(action, Attack):
        return 1.0 if action.attack and skirmish.may_attack(state) else 0.0
    if isinstance(action, Send):
        return _send_worth(state, action)
    if isinstance(action, Oppose):
        return _oppose_worth(state, action)
    if isinstance(action, Train):
        return 3.0
    if isinstance(action, (Order, Skill)):
        # Now and then, so the search still meets them; mostly pass.
        return rng.random() - 0.8
    if isinstance(action, Cancel):
        return -1.0  # never start paying only to take it back
    if isinstance(action, Done):
        return 0.0
    return 0.5  # paying a cost, choosing a warrior, resolving a skirmish, passing a round: go on


def _send_worth(state: PhState, action: Send) -> float:
    """A first warrior sent names the attack's target for all the others: it is
    worth what the whole army would strike there; the rest, each its own strike."""
    if state.skirmishes:
        return _strike_worth(state, action.card, action.at)
    return sum(
        max(0.0, _strike_worth(state, card, action.at))
        for card in skirmish.may_attack(state)
        if card != action.card
    ) + _strike_worth(state, action.card, action.at)


def _strike_worth(state: PhState, card: int, at: int | None) -> float:
    power = state.attack(card)
    if power <= 0:
        return -1.0
    kind = KINDS.index(state.side(card).alignment)
    if at is None:
        # An unopposed strike on the Nexus takes its influence for the attacker.
        return power + 0.5 if state.nexus[kind] else -0.5
    # On a player it only makes them lose what they hold of that kind.
    held = state.influence[at][kind]
    return min(power, held) / 2 if held else -0.5


def _oppose_worth(state: PhState, action: Oppose) -> float:
    survives = state.defense(action.card) - state.damage.get(action.card, 0) > state.attack(action.attacker)
    kills = state.attack(action.card) >= state.defense(action.attacker) - state.damage.get(action.attacker, 0)
    if survives or kills:
        return 2.0 + (1.0 if survives and kills else 0.0)
    # Throwing a warrior away is worth it only against a big strike.
    return 0.5 if state.attack(action.attacker) >= 3 else -0.5
