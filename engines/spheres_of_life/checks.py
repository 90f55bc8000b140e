"""Why a move is refused: one sentence per case, checked before the legal-move list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import IllegalAction, seat_ref
from engines.spheres_of_life import actions, effects, knowledge
from engines.spheres_of_life.state import SolState


def _held(state: SolState, seat: int, card: int) -> None:
    if card not in state.hands[seat]:
        raise IllegalAction("You do not hold that card.")


def _play(state: SolState, seat: int, move: actions.Play) -> None:
    if move.card in state.heroes_used[seat]:
        raise IllegalAction("Each Hero can be used only once per game.")
    hero = move.card in state.heroes[seat]
    if not hero:
        _held(state, seat, move.card)
    if not effects.can_play_now(state, hero):
        raise IllegalAction(
            "Abilities are played only during a Dream, one at a time, and never while "
            "an Action or another card is being resolved."
        )


def _pick(state: SolState, seat: int, move: actions.Pick) -> None:
    if move.card not in state.table:
        raise IllegalAction("That card is not on the table.")


def _target(state: SolState, seat: int, move: actions.Steal | actions.Gift) -> None:
    if not 0 <= move.target < state.players or move.target == seat:
        raise IllegalAction("Choose another player at the table.")
    dream = state.dream
    if dream is not None and isinstance(move, actions.Steal) and move.target in dream.steal_shield:
        raise IllegalAction(f"{seat_ref(move.target)} cannot be stolen from during this Dream.")
    if dream is not None and isinstance(move, actions.Gift) and move.target in dream.gift_shield:
        raise IllegalAction(f"{seat_ref(move.target)} refuses Forced Gifts during this Dream.")


def _steal(state: SolState, seat: int, move: actions.Steal) -> None:
    _target(state, seat, move)
    if not state.hands[move.target]:
        raise IllegalAction(f"{seat_ref(move.target)} has no card to steal.")
    if move.card is not None and move.card not in knowledge.seen_in(state, seat, move.target):
        raise IllegalAction(
            "A Steal takes a random card: you may name only a card you have been "
            f"shown in {seat_ref(move.target)}'s hand."
        )


def _gift(state: SolState, seat: int, move: actions.Gift) -> None:
    _held(state, seat, move.card)
    _target(state, seat, move)


def _bank(state: SolState, seat: int, move: actions.Bank) -> None:
    if state.dream is not None and seat in state.dream.banked:
        raise IllegalAction("You can bank only one set per Dream.")


def _accept(state: SolState, seat: int, move: actions.Accept) -> None:
    exchange = state.dream.exchange if state.dream is not None else None
    if exchange is not None and all(state.kind(c) != exchange.wanted for c in state.hands[seat]):
        raise IllegalAction("You do not hold the card asked for.")


def _reorder(state: SolState, seat: int, move: actions.Reorder) -> None:
    if state.locked[seat]:
        raise IllegalAction("Your hand's order is locked until this phase ends.")


def _want(state: SolState, seat: int, move: actions.Want) -> None:
    if move.wanted not in state.wantable():
        raise IllegalAction("There is no such card in this game.")


def _own_card(state: SolState, seat: int, move: actions.Discard | actions.Offer | actions.Block) -> None:
    _held(state, seat, move.card)


CHECKS: dict[type, Callable[[SolState, int, Any], None]] = {
    actions.Play: _play,
    actions.Pick: _pick,
    actions.Steal: _steal,
    actions.Gift: _gift,
    actions.Bank: _bank,
    actions.Accept: _accept,
    actions.Reorder: _reorder,
    actions.Want: _want,
    actions.Discard: _own_card,
    actions.Offer: _own_card,
    actions.Block: _own_card,
}


def check(state: SolState, seat: int, move: Any) -> None:
    card = getattr(move, "card", None)
    if card is not None and not 0 <= card < len(state.cards):
        raise IllegalAction("There is no such card in this game.")
    found = CHECKS.get(type(move))
    if found is not None:
        found(state, seat, move)
