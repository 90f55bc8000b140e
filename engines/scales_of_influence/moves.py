"""Carrying out each move (already validated and known legal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import Event, Seat, seat_ref
from engines.scales_of_influence import actions, effects
from engines.scales_of_influence.effects import SIDE_NAME, Events
from engines.scales_of_influence.flow import make_shaman, mark_resolved, shaman_may_block
from engines.scales_of_influence.state import (
    SLOTS,
    Cosmic,
    Effect,
    Giving,
    Prevention,
    ShamanPick,
    SoiState,
    Tribute,
    Turn,
)


def _turn(state: SoiState) -> Turn:
    assert state.turn is not None
    return state.turn


def receive(state: SoiState, seat: Seat, action: actions.Receive, events: Events) -> None:
    if action.how == "draw":
        effects.draw(state, seat, 1, events)
        events.append(Event(text=f"{seat_ref(seat)} receives a card."))
    else:
        effects.gain(state, seat, 1)
        events.append(Event(text=f"{seat_ref(seat)} receives 1 Energy."))
    _turn(state).step = "release"


def play_card(state: SoiState, seat: Seat, action: actions.PlayCard, events: Events) -> None:
    state.hands[seat].remove(action.card)
    placement = state.reading[action.slot]
    placement.cards.append(action.card)
    placement.holder = seat
    _turn(state).step = "after"
    events.append(
        Event(
            text=f"{seat_ref(seat)} plays {state.card(action.card).short()} to the "
            f"{SLOTS[action.slot]} and takes its marker."
        )
    )


def give_influence(state: SoiState, seat: Seat, action: actions.GiveInfluence, events: Events) -> None:
    _turn(state).step = "after"
    effects.start_giving(state, seat, events)


def pick_token(state: SoiState, seat: Seat, action: actions.PickToken, events: Events) -> None:
    giving = state.stack.pop()
    assert isinstance(giving, Giving)
    giving.drawn.remove(action.value)
    state.bags[action.side].append(action.value)
    state.source_tokens.extend(giving.drawn)
    back = f"; {giving.drawn[0]:+d} returns to the source" if giving.drawn else ""
    events.append(Event(text=f"{seat_ref(seat)} gave Influence."))
    events.append(
        Event(text=f"You put {action.value:+d} in the {SIDE_NAME[action.side]} bag{back}.", to=[seat])
    )


def channel_draw(state: SoiState, seat: Seat, action: actions.ChannelDraw, events: Events) -> None:
    _turn(state).channeled = True
    effects.give_back(state, seat, 1)
    effects.draw(state, seat, 1, events)
    events.append(Event(text=f"{seat_ref(seat)} channels: returns 1 Energy to draw a card."))


def channel_take(state: SoiState, seat: Seat, action: actions.ChannelTake, events: Events) -> None:
    _turn(state).channeled = True
    state.stack.append(Tribute(seat=seat, target=action.target, left=2))
    events.append(
        Event(
            text=f"{seat_ref(seat)} channels: discards 2 cards to take 2 Energy from "
            f"{seat_ref(action.target)}."
        )
    )


def channel_clear(state: SoiState, seat: Seat, action: actions.ChannelClear, events: Events) -> None:
    _turn(state).channeled = True
    effects.give_back(state, seat, 3)
    placement = state.reading[action.slot]
    names = ", ".join(state.card(c).short() for c in placement.cards)
    state.discard.extend(placement.cards)
    placement.cards, placement.holder = [], None
    events.append(
        Event(
            text=f"{seat_ref(seat)} channels: returns 3 Energy to discard {names} from the "
            f"{SLOTS[action.slot]}; its marker returns to the board."
        )
    )


def discard(state: SoiState, seat: Seat, action: actions.Discard, events: Events) -> None:
    name = effects.discard_from_hand(state, seat, [action.card])
    events.append(Event(text=f"{seat_ref(seat)} discards {name}."))
    top = state.stack[-1] if state.stack else None
    if isinstance(top, Tribute):
        top.left -= 1
        if top.left == 0:
            state.stack.pop()
            taken = effects.transfer(state, top.target, seat, 2)
            events.append(Event(text=f"{seat_ref(seat)} takes {taken} Energy from {seat_ref(top.target)}."))


def pass_(state: SoiState, seat: Seat, action: Any, events: Events) -> None:
    top = state.stack[-1] if state.stack else None
    if isinstance(top, Cosmic) and not top.responders:
        top.shaman_turn = False
        events.append(Event(text=f"The Shaman {seat_ref(seat)} lets it shine."))
    elif isinstance(top, Cosmic):
        top.responders.pop(0)
        events.append(Event(text=f"{seat_ref(seat)} passes."))
    elif isinstance(top, Prevention):
        top.remaining.pop(0)
        events.append(Event(text=f"{seat_ref(seat)} lets it be."))
    elif state.phase == "moon":
        state.moon_order.pop(0)
        events.append(Event(text=f"{seat_ref(seat)} passes."))
    else:
        turn = _turn(state)
        if turn.step == "receive":
            turn.step = "release"
        elif turn.step == "release":
            turn.step = "after"
        else:
            turn.step = "discard"


def eclipse(state: SoiState, seat: Seat, action: actions.Eclipse, events: Events) -> None:
    placement = state.reading[action.slot]
    covered, holder = placement.cards[-1], placement.holder
    assert holder is not None
    effects.transfer(state, seat, holder, 1)
    state.hands[seat].remove(action.card)
    placement.cards.append(action.card)
    placement.holder = seat
    state.moon_order.pop(0)
    events.append(
        Event(
            text=f"🌘 {seat_ref(seat)} Eclipses {state.card(covered).short()} in the "
            f"{SLOTS[action.slot]} with {state.card(action.card).short()}, paying 1 Energy "
            f"to {seat_ref(holder)}."
        )
    )


def resolve_card(state: SoiState, seat: Seat, action: actions.Resolve, events: Events) -> None:
    effect = state.stack.pop()
    assert isinstance(effect, Effect)
    mark_resolved(state, effect)
    effects.carry_out(state, effect, action.target, action.side, events)


def shooting_star(state: SoiState, seat: Seat, action: actions.ShootingStar, events: Events) -> None:
    _use_prevention_turn(state, seat)
    state.hands[seat].remove(action.card)
    state.stack.append(Cosmic(stars=[action.card], owners=[seat], responders=state.order_from(seat)[1:]))
    events.append(
        Event(
            text=f"🌠 {seat_ref(seat)} plays the Shooting Star {state.card(action.card).short()}: "
            f"a Cosmic Event! From {seat_ref(state.left_of(seat))}, each may Eclipse it or pass.",
            kind="alert",
        )
    )


def eclipse_star(state: SoiState, seat: Seat, action: actions.EclipseStar, events: Events) -> None:
    event = state.stack[-1]
    assert isinstance(event, Cosmic)
    effects.give_back(state, seat, 1)
    state.hands[seat].remove(action.card)
    event.stars.append(action.card)
    event.owners.append(seat)
    event.responders.pop(0)
    events.append(Event(text=f"🌠 {seat_ref(seat)} Eclipses it with {state.card(action.card).short()}."))
    if not event.responders and state.shaman is not None and shaman_may_block(state, event):
        event.shaman_turn = True
        events.append(Event(text=f"🪶 The Shaman {seat_ref(state.shaman)} may still block it."))


def shaman_power(state: SoiState, seat: Seat, action: actions.ShamanPower, events: Events) -> None:
    _use_prevention_turn(state, seat)
    effects.give_back(state, seat, 2)
    state.shaman_used = True
    top = state.stack[-1] if state.stack else None
    if isinstance(top, Cosmic):
        top.shaman_turn = False  # the power is spent: nothing is left to wait for
    if action.power == "block":
        _shaman_block(state, seat, events)
    elif action.power == "scale":
        assert action.side is not None
        events.append(
            Event(
                text=f"🪶 The Shaman {seat_ref(seat)} returns 2 Energy to add 2 to {SIDE_NAME[action.side]}."
            )
        )
        effects.scale_add(state, action.side, 2, events)
    else:
        assert action.side is not None and action.value is not None
        state.bags[action.side].remove(action.value)
        state.source_tokens.append(action.value)
        events.append(
            Event(
                text=f"🪶 The Shaman {seat_ref(seat)} returns 2 Energy to return "
                f"{action.value:+d} from the {SIDE_NAME[action.side]} bag to the source."
            )
        )


def _shaman_block(state: SoiState, seat: Seat, events: Events) -> None:
    event = state.stack[-1]
    assert isinstance(event, Cosmic)
    event.blocked.append(len(event.stars) - 1)
    events.append(
        Event(
            text=f"🪶 The Shaman {seat_ref(seat)} returns 2 Energy to block "
            f"{state.card(event.stars[-1]).short()}."
        )
    )


def _use_prevention_turn(state: SoiState, seat: Seat) -> None:
    top = state.stack[-1] if state.stack else None
    if isinstance(top, Prevention) and top.remaining and top.remaining[0] == seat:
        top.remaining.pop(0)


def choose_shaman(state: SoiState, seat: Seat, action: actions.ChooseShaman, events: Events) -> None:
    pick = state.stack.pop()
    assert isinstance(pick, ShamanPick)
    make_shaman(state, action.seat, events)


def weigh(state: SoiState, seat: Seat, action: Any, events: Events) -> None:
    state.weigh_step = "shadow"


HANDLERS: dict[str, Callable[[SoiState, Seat, Any, Events], None]] = {
    "receive": receive,
    "play": play_card,
    "give": give_influence,
    "token": pick_token,
    "channel_draw": channel_draw,
    "channel_take": channel_take,
    "channel_clear": channel_clear,
    "discard": discard,
    "pass": pass_,
    "eclipse": eclipse,
    "resolve": resolve_card,
    "weigh": weigh,
    "star": shooting_star,
    "eclipse_star": eclipse_star,
    "shaman": shaman_power,
    "choose_shaman": choose_shaman,
}


def carry_out_move(state: SoiState, seat: Seat, action: actions.SoiAction, events: Events) -> None:
    HANDLERS[action.type](state, seat, action, events)
