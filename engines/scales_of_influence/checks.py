"""Precise reasons for refused moves (``Engine.validate``). Anything that passes
here but is still not legal is refused by the base class with a general sentence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import IllegalAction, Seat, seat_ref
from engines.scales_of_influence import actions
from engines.scales_of_influence.awaiting import awaited
from engines.scales_of_influence.choices import can_eclipse
from engines.scales_of_influence.state import SLOTS, Cosmic, Effect, Giving, Prevention, ShamanPick, SoiState


def _refuse(reason: str) -> None:
    raise IllegalAction(reason)


def _holds(state: SoiState, seat: Seat, card: int) -> None:
    if card not in state.hands[seat]:
        _refuse("You do not hold that card.")


def _awaited_here(state: SoiState, seat: Seat) -> bool:
    waiting = awaited(state)
    return waiting is not None and waiting[0] == seat


def _top(state: SoiState) -> Any:
    return state.stack[-1] if state.stack else None


def _in_sun_turn(state: SoiState, seat: Seat, what: str) -> None:
    if state.stack or state.phase != "sun" or state.turn is None or state.turn.seat != seat:
        _refuse(f"You can {what} only during your own Sun turn.")


def _play(state: SoiState, seat: Seat, action: actions.PlayCard) -> None:
    _holds(state, seat, action.card)
    if state.card(action.card).star:
        _refuse("A Shooting Star is not a Hand card: play it as a Cosmic Event.")
    _in_sun_turn(state, seat, "play to the Reading")
    assert state.turn is not None
    if state.turn.step != "release":
        _refuse("Play to the Reading is your Release action: Receive first.")
    if state.reading[action.slot].holder is not None:
        _refuse(f"The {SLOTS[action.slot]} marker is already taken.")


def _channel(state: SoiState, seat: Seat, cost: int) -> None:
    _in_sun_turn(state, seat, "Channel")
    assert state.turn is not None
    if state.turn.channeled:
        _refuse("You have already channeled this turn.")
    if state.energy[seat] < cost:
        _refuse(f"That Channel costs {cost} Energy.")


def _channel_take(state: SoiState, seat: Seat, action: actions.ChannelTake) -> None:
    _channel(state, seat, 0)
    if action.target == seat or not 0 <= action.target < state.players:
        _refuse("Take Energy from another player.")
    if len(state.hands[seat]) < 2:
        _refuse("You need 2 cards to discard.")
    if state.energy[action.target] == 0:
        _refuse(f"{seat_ref(action.target)} has no Energy.")


def _channel_clear(state: SoiState, seat: Seat, action: actions.ChannelClear) -> None:
    _channel(state, seat, 3)
    if not state.reading[action.slot].cards:
        _refuse(f"There is no card in the {SLOTS[action.slot]}.")


def _discard(state: SoiState, seat: Seat, action: actions.Discard) -> None:
    _holds(state, seat, action.card)


def _eclipse(state: SoiState, seat: Seat, action: actions.Eclipse) -> None:
    _holds(state, seat, action.card)
    if state.stack or state.phase != "moon" or not state.moon_order or state.moon_order[0] != seat:
        _refuse("You can Eclipse the Reading only on your Moon turn.")
    covered = state.top_card(action.slot)
    if covered is None:
        _refuse(f"There is no card in the {SLOTS[action.slot]} to Eclipse.")
    assert covered is not None
    if not can_eclipse(state, action.card, covered):
        spec = state.card(covered)
        _refuse(f"An Eclipse needs a Hand card of {spec.element} ranked above {spec.rank}.")
    if state.energy[seat] < 1:
        _refuse("An Eclipse costs 1 Energy and you have none.")


def _star(state: SoiState, seat: Seat, action: actions.ShootingStar) -> None:
    _holds(state, seat, action.card)
    if not state.card(action.card).star:
        _refuse("That card is not a Shooting Star.")
    if state.energy[seat] < 1:
        _refuse("You need at least 1 Energy to start a Cosmic Event.")
    if isinstance(_top(state), Cosmic):
        _refuse("A Cosmic Event is under way: Eclipse its star when your turn in it comes.")
    if isinstance(_top(state), Prevention) and not _awaited_here(state, seat):
        _refuse("Wait for your turn to prevent the end.")


def _eclipse_star(state: SoiState, seat: Seat, action: actions.EclipseStar) -> None:
    _holds(state, seat, action.card)
    event = _top(state)
    if not isinstance(event, Cosmic) or not event.responders or event.responders[0] != seat:
        _refuse("You can Eclipse a Shooting Star only on your turn in a Cosmic Event.")
    if not state.card(action.card).star or state.card(action.card).rank <= state.card(event.stars[-1]).rank:
        _refuse(f"Only a Shooting Star ranked above {state.card(event.stars[-1]).rank} can Eclipse it.")
    if state.energy[seat] < 1:
        _refuse("Eclipsing a Shooting Star costs 1 Energy.")


def _shaman(state: SoiState, seat: Seat, action: actions.ShamanPower) -> None:
    if seat != state.shaman:
        _refuse("Only the Shaman can do that.")
    if state.shaman_used:
        _refuse("The Shaman's power is already used today.")
    if state.energy[seat] < 2:
        _refuse("The Shaman must return 2 Energy and you have less.")
    in_round = any(isinstance(item, Prevention) for item in state.stack)
    if in_round and action.power != "block" and not _awaited_here(state, seat):
        _refuse("Wait for your turn to prevent the end.")
    if action.power == "block" and not isinstance(_top(state), Cosmic):
        _refuse("There is no Shooting Star to block.")
    if action.power in ("scale", "token") and action.side is None:
        _refuse("Choose a side.")
    if action.power == "token":
        if state.phase != "weighing" or state.weigh_step != "confirm":
            _refuse("Influence can be returned only at Weighing, once revealed and before the Scale moves.")
        if action.side is not None and action.value not in state.bags[action.side]:
            _refuse("There is no such token in that bag.")


def _receive(state: SoiState, seat: Seat, action: actions.Receive) -> None:
    _in_sun_turn(state, seat, "Receive")
    assert state.turn is not None
    if state.turn.step != "receive":
        _refuse("You have already received this turn.")
    if action.how == "draw" and not state.deck:
        _refuse("The tarot deck is empty.")
    if action.how == "energy" and not state.source_energy:
        _refuse("The Energy source is empty.")


def _give(state: SoiState, seat: Seat, action: actions.GiveInfluence) -> None:
    _in_sun_turn(state, seat, "Give Influence")
    assert state.turn is not None
    if state.turn.step != "release":
        _refuse("Give Influence is your Release action: Receive first, and only once.")
    if not state.source_tokens:
        _refuse("The Influence source is empty.")


def _weigh(state: SoiState, seat: Seat, action: actions.Weigh) -> None:
    if state.stack or state.phase != "weighing" or state.weigh_step != "confirm":
        _refuse("The Scale is adjusted only at the Weighing.")
    if seat != state.traveler:
        _refuse("The Traveler adjusts the Scale.")


def _token(state: SoiState, seat: Seat, action: actions.PickToken) -> None:
    giving = _top(state)
    if not isinstance(giving, Giving) or giving.seat != seat:
        _refuse("You are not giving Influence now.")
    if action.value not in giving.drawn:
        _refuse("You did not draw that token.")


def _resolve(state: SoiState, seat: Seat, action: actions.Resolve) -> None:
    effect = _top(state)
    if not isinstance(effect, Effect) or effect.owner != seat:
        _refuse("You have no card to resolve now.")
    spec = state.card(effect.card)
    if spec.needs_target and (action.target is None or action.target == seat):
        _refuse("Choose another player as the target.")
    if spec.needs_side and action.side is None:
        _refuse("Choose a side of the Scale.")


def _choose(state: SoiState, seat: Seat, action: actions.ChooseShaman) -> None:
    pick = _top(state)
    if not isinstance(pick, ShamanPick) or pick.chooser != seat:
        _refuse("You are not picking the Shaman.")
    if action.seat not in pick.candidates:
        _refuse(f"{seat_ref(action.seat)} is not tied for the most Energy.")


CHECKS: dict[type, Callable[[SoiState, Seat, Any], None]] = {
    actions.PlayCard: _play,
    actions.ChannelDraw: lambda s, seat, a: _channel(s, seat, 1),
    actions.ChannelTake: _channel_take,
    actions.ChannelClear: _channel_clear,
    actions.Discard: _discard,
    actions.Eclipse: _eclipse,
    actions.ShootingStar: _star,
    actions.EclipseStar: _eclipse_star,
    actions.ShamanPower: _shaman,
    actions.PickToken: _token,
    actions.Resolve: _resolve,
    actions.ChooseShaman: _choose,
    actions.Receive: _receive,
    actions.GiveInfluence: _give,
    actions.Weigh: _weigh,
}


def check_action(state: SoiState, seat: Seat, action: actions.SoiAction) -> None:
    check = CHECKS.get(type(action))
    if check is not None:
        check(state, seat, action)
