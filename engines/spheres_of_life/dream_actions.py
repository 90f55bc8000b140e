"""The Dream's Actions — Steal, Forced Gift, Exchange — and the Block window each opens.

The FAQ: "you cannot Block your own Action", and the Block Ability is the one
card that may be played while an Action takes place. So every other player may
answer an Action with an Apple of Life. To hide who holds one, the window opens
to every other seat alike, whenever an Apple may still be in someone's hand as
far as the table can tell (not every copy is face up). Each Apple reopens the
window to everyone (an Apple is an Ability, which its owner's opponents and the
actor alike may block); an odd number of Apples cancels the Action, which is
then spent, as a blocked card is.
"""

from __future__ import annotations

from typing import Literal

from engines.core import Event, seat_ref
from engines.spheres_of_life.state import Announced, Dream, SolState
from engines.words import plural

Kind = Literal["steal", "gift", "exchange"]


def _dream(state: SolState) -> Dream:
    assert state.dream is not None
    return state.dream


def action_done(state: SolState) -> None:
    dream = _dream(state)
    dream.to_act.pop(0)
    dream.exchange, dream.offer, dream.action = None, None, None


def block_possible(state: SolState) -> bool:
    """Whether an Apple of Life may be in a hand, judged from public facts only:
    some copy is neither face up (discard pile, in play) nor out of the game."""
    if state.stage != "dream" or not state.deck_spec.has_block:
        return False
    hidden = [state.deck, *state.hands]
    return any(_is_block(state, card) for place in hidden for card in place)


def _is_block(state: SolState, card: int) -> bool:
    power = state.deck_spec.power(state.kind(card))
    return power is not None and power.is_block


def announce(state: SolState, actor: int, kind: Kind, target: int, card: int | None) -> list[Event]:
    """Declare an Action; it takes place at once when no Apple could answer it."""
    action = Announced(actor=actor, kind=kind, target=target, card=card)
    if not block_possible(state):
        return _take_place(state, action)
    action.window = [s for s in range(state.players) if s != actor]
    _dream(state).action = action
    what = {
        "steal": f"{seat_ref(actor)} is stealing a card from {seat_ref(target)}",
        "gift": f"{seat_ref(actor)} is giving a card to {seat_ref(target)} (Forced Gift)",
        "exchange": f"{seat_ref(target)} accepts {seat_ref(actor)}'s exchange",
    }[kind]
    return [Event(text=f"{what}. Anyone else may Block this Action with an Apple of Life, or pass.")]


def block(state: SolState, seat: int, card: int) -> list[Event]:
    action = _dream(state).action
    assert action is not None
    state.hands[seat].remove(card)
    state.in_play.append(card)
    action.blocks += 1
    action.window = list(range(state.players))
    return [
        Event(
            text=f"{seat_ref(seat)} blocks the Action with {state.name(card)}! "
            "Anyone may Block this Block, or pass."
        )
    ]


def pass_window(state: SolState, seat: int) -> None:
    action = _dream(state).action
    assert action is not None
    action.window.remove(seat)


def describe(state: SolState) -> str | None:
    """The public line for an Action waiting on its Block window."""
    dream = state.dream
    action = dream.action if dream is not None else None
    if action is None:
        return None
    verb = {"steal": "steals from", "gift": "gives a Forced Gift to", "exchange": "exchanges with"}[
        action.kind
    ]
    return (
        f"{seat_ref(action.actor)} {verb} {seat_ref(action.target)} — Block window "
        f"({plural(action.blocks, 'Block')} so far)"
    )


def settle_action(state: SolState) -> list[Event]:
    """The window has closed: the Action takes place, or is spent if blocked."""
    action = _dream(state).action
    assert action is not None and not action.window
    state.discard.extend(state.in_play)
    state.in_play = []
    if action.blocks % 2:
        action_done(state)
        return [Event(text=f"The Action of {seat_ref(action.actor)} is blocked and has no effect.")]
    return _take_place(state, action)


def _take_place(state: SolState, action: Announced) -> list[Event]:
    events = {"steal": _steal, "gift": _gift, "exchange": _exchange}[action.kind](state, action)
    action_done(state)
    return events


def _steal(state: SolState, action: Announced) -> list[Event]:
    thief, victim = action.actor, action.target
    hand = state.hands[victim]
    card = action.card
    if card is None or card not in hand:
        # A random card, drawn from the game's hidden seed (a seen card that has
        # left the hand meanwhile — an Apple used to block — gives way to one too).
        if not hand:
            return [Event(text=f"{seat_ref(victim)} has no card left: {seat_ref(thief)} steals nothing.")]
        card = hand[state.rng.below(len(hand))]
    hand.remove(card)
    state.hands[thief].append(card)
    return [
        Event(text=f"{seat_ref(thief)} steals a card from {seat_ref(victim)}."),
        Event(
            text=f"{seat_ref(thief)} stole {state.name(card)} from {seat_ref(victim)}.", to=[thief, victim]
        ),
    ]


def _gift(state: SolState, action: Announced) -> list[Event]:
    giver, receiver, card = action.actor, action.target, action.card
    if card is None or card not in state.hands[giver]:
        return [Event(text=f"The Forced Gift of {seat_ref(giver)} is no longer in hand: nothing is given.")]
    state.hands[giver].remove(card)
    state.hands[receiver].append(card)
    return [
        Event(text=f"{seat_ref(giver)} gives a card to {seat_ref(receiver)} (Forced Gift)."),
        Event(
            text=f"{seat_ref(giver)} gave {state.name(card)} to {seat_ref(receiver)}.", to=[giver, receiver]
        ),
    ]


def _exchange(state: SolState, action: Announced) -> list[Event]:
    exchange = _dream(state).exchange
    assert exchange is not None
    proposer, accepter, card = action.actor, action.target, exchange.card
    given = next((c for c in state.hands[accepter] if state.kind(c) == exchange.wanted), None)
    if given is None or card not in state.hands[proposer]:
        return [Event(text="A card of the exchange is no longer in hand: the exchange falls through.")]
    state.hands[proposer].remove(card)
    state.hands[accepter].remove(given)
    state.hands[accepter].append(card)
    state.hands[proposer].append(given)
    return [
        Event(
            text=f"{seat_ref(accepter)} accepts: {seat_ref(proposer)}'s "
            f"{state.name(card)} for {seat_ref(accepter)}'s {state.name(given)}."
        )
    ]
