"""Carrying out each move, then letting the game run on until someone must choose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import Event, seat_ref
from engines.spheres_of_life import actions, dream_actions, effects, knowledge
from engines.spheres_of_life.phases import (
    check_balance,
    end_night_turn,
    end_phase,
    finish_day,
    finish_night,
    heroes_needed,
    night_limit,
    reveal_heroes,
    reveal_rps,
)
from engines.spheres_of_life.scoring import SET_SIZE
from engines.spheres_of_life.state import Dream, Exchange, SolState


def _dream(state: SolState) -> Dream:
    assert state.dream is not None
    return state.dream


def choose_hero(state: SolState, seat: int, move: actions.ChooseHero) -> list[Event]:
    state.hero_picks[seat].append(move.hero)
    events = [Event(text=f"{seat_ref(seat)} has chosen.")] if heroes_needed(state, seat) == 0 else []
    if any(heroes_needed(state, s) > 0 for s in range(state.players)):
        return events
    return events + reveal_heroes(state)


def throw(state: SolState, seat: int, move: actions.Throw) -> list[Event]:
    state.rps[seat] = move.shape
    if any(state.rps[s] is None for s in state.rps_players):
        return [Event(text=f"{seat_ref(seat)} has thrown.")]
    return reveal_rps(state)


def pick(state: SolState, seat: int, move: actions.Pick) -> list[Event]:
    state.table.remove(move.card)
    state.hands[seat].append(move.card)
    state.count += 1
    if state.stage == "day" and (state.count >= state.options.pace_factor or not state.table):
        state.queue.pop(0)
        state.count = 0
    return [Event(text=f"{seat_ref(seat)} picks {state.name(move.card)} from the table.")]


def discard(state: SolState, seat: int, move: actions.Discard) -> list[Event]:
    state.hands[seat].remove(move.card)
    state.discard.append(move.card)
    if state.pending is not None:
        state.pending.count += 1
    else:
        state.discarded += 1
    return [Event(text=f"{seat_ref(seat)} discards {state.name(move.card)}.")]


def done(state: SolState, seat: int, move: actions.Done) -> list[Event]:
    if state.pending is not None:
        state.pending.stop = True
    elif not state.picking:
        state.picking = True
    else:
        end_night_turn(state)
    return []


def bank(state: SolState, seat: int, move: actions.Bank) -> list[Event]:
    cards = [c for c in state.hands[seat] if state.kind(c) == move.animal][:SET_SIZE]
    for card in cards:
        state.hands[seat].remove(card)
    state.banked[seat].extend(cards)
    _dream(state).banked.append(seat)
    return [Event(text=f"{seat_ref(seat)} banks a set of {state.deck_spec.name_of(move.animal)}.")]


def steal(state: SolState, seat: int, move: actions.Steal) -> list[Event]:
    return dream_actions.announce(state, seat, "steal", move.target, move.card)


def gift(state: SolState, seat: int, move: actions.Gift) -> list[Event]:
    return dream_actions.announce(state, seat, "gift", move.target, move.card)


def offer(state: SolState, seat: int, move: actions.Offer) -> list[Event]:
    _dream(state).offer = move.card
    return []


def cancel(state: SolState, seat: int, move: actions.Cancel) -> list[Event]:
    _dream(state).offer = None
    return []


def want(state: SolState, seat: int, move: actions.Want) -> list[Event]:
    dream = _dream(state)
    assert dream.offer is not None
    others = [s for s in range(state.players) if s != seat]
    dream.exchange = Exchange(proposer=seat, card=dream.offer, wanted=move.wanted, waiting=others)
    dream.offer = None
    return [
        Event(
            text=f"{seat_ref(seat)} offers to exchange their {state.name(dream.exchange.card)} "
            f"for a {state.deck_spec.name_of(move.wanted)}. Accept or decline."
        )
    ]


def accept(state: SolState, seat: int, move: actions.Accept) -> list[Event]:
    exchange = _dream(state).exchange
    assert exchange is not None
    return dream_actions.announce(state, exchange.proposer, "exchange", seat, exchange.card)


def decline(state: SolState, seat: int, move: actions.Decline) -> list[Event]:
    exchange = _dream(state).exchange
    assert exchange is not None
    exchange.waiting.remove(seat)
    if exchange.waiting:
        return []
    exchange.refused = True
    return [Event(text=f"Nobody accepts: {seat_ref(exchange.proposer)} must Steal or give a Forced Gift.")]


def play(state: SolState, seat: int, move: actions.Play) -> list[Event]:
    return effects.play(state, seat, move.card, move.target)


def block(state: SolState, seat: int, move: actions.Block) -> list[Event]:
    if state.pending is not None:
        return effects.block(state, seat, move.card)
    return dream_actions.block(state, seat, move.card)


def pass_(state: SolState, seat: int, move: actions.Pass) -> list[Event]:
    if state.pending is not None:
        return effects.pass_window(state, seat)
    if _dream(state).action is not None:
        dream_actions.pass_window(state, seat)
        return []
    dream_actions.action_done(state)
    return [Event(text=f"{seat_ref(seat)} can take no Action and passes.")]


def reorder(state: SolState, seat: int, move: actions.Reorder) -> list[Event]:
    hand, i = state.hands[seat], move.position - 1
    hand[i], hand[i + 1] = hand[i + 1], hand[i]
    knowledge.forget_hand(state, seat)
    return []


def peek(state: SolState, seat: int, move: actions.Peek) -> list[Event]:
    assert state.pending is not None
    state.pending.chosen.append(move.position - 1)
    return []


def place(state: SolState, seat: int, move: actions.Place) -> list[Event]:
    assert state.pending is not None
    state.pending.placed.append(move.card)
    return []


def take(state: SolState, seat: int, move: actions.Take) -> list[Event]:
    pending = state.pending
    assert pending is not None and pending.target is not None
    state.hands[pending.target].remove(move.card)
    state.hands[seat].append(move.card)
    pending.count += 1
    return [
        Event(text=f"{seat_ref(seat)} takes a card from {seat_ref(pending.target)}."),
        Event(
            text=f"{seat_ref(seat)} took {state.name(move.card)} from {seat_ref(pending.target)}.",
            to=[seat, pending.target],
        ),
    ]


MOVES: dict[type, Callable[[SolState, int, Any], list[Event]]] = {
    actions.ChooseHero: choose_hero,
    actions.Throw: throw,
    actions.Pick: pick,
    actions.Discard: discard,
    actions.Done: done,
    actions.Bank: bank,
    actions.Steal: steal,
    actions.Gift: gift,
    actions.Offer: offer,
    actions.Cancel: cancel,
    actions.Want: want,
    actions.Accept: accept,
    actions.Decline: decline,
    actions.Play: play,
    actions.Block: block,
    actions.Pass: pass_,
    actions.Reorder: reorder,
    actions.Peek: peek,
    actions.Place: place,
    actions.Take: take,
}


def carry_out(state: SolState, seat: int, move: Any) -> list[Event]:
    events = MOVES[type(move)](state, seat, move) + settle(state)
    knowledge.prune(state)
    return events


def settle(state: SolState) -> list[Event]:
    """Run every automatic step (effects, draws, ends of turns and phases)."""
    events: list[Event] = []
    while True:
        if state.pending is not None:
            events += effects.advance(state)
            if state.pending is not None:
                break
        more = _phase_step(state)
        if more is None:
            break
        events += more
    return events + check_balance(state)


def _phase_step(state: SolState) -> list[Event] | None:
    if state.stage == "day":
        if state.queue and state.table:
            return None
        state.queue = []
        return finish_day(state)
    if state.stage == "night":
        return _night_step(state)
    if state.stage == "dream":
        return _dream_step(_dream(state), state)
    return None


def _night_step(state: SolState) -> list[Event] | None:
    if not state.queue:
        return finish_night(state)
    seat = state.queue[0]
    if not state.picking:
        if state.hands[seat] and state.discarded < night_limit(state):
            return None
        state.picking = True
        return []
    if state.count < state.discarded and state.table:
        return None
    end_night_turn(state)
    return []


def _dream_step(dream: Dream, state: SolState) -> list[Event] | None:
    if dream.action is not None:
        return None if dream.action.window else dream_actions.settle_action(state)
    if dream.exchange is not None:
        return None
    if dream.offer is not None and (not dream.to_act or dream.offer not in state.hands[dream.to_act[0]]):
        dream.offer = None
        return []
    if not dream.to_act:
        return end_phase(state)
    return None
