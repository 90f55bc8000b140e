"""Moving pawns, the START bonus, and carrying out Chance and Bad Luck cards."""

from __future__ import annotations

from typing import Literal

from engines.core import Event, seat_ref
from engines.once_upon_a_time_life.board import builtin_board
from engines.once_upon_a_time_life.cards import CardSpec, Effect
from engines.once_upon_a_time_life.state import START_BONUS, LifeState
from engines.once_upon_a_time_life.tokens import KINDS, TokenKind, move, tokens_text

DeckName = Literal["chance", "bad_luck"]
DECK_NAMES = {"chance": "Chance", "bad_luck": "Bad Luck"}


def forward(state: LifeState, seat: int, steps: int) -> list[Event]:
    """Move clockwise; passing (or reaching) one's own START pays its bonus.
    A pawn on an additional space sets off from the START nearest to it."""
    board = state.board
    events: list[Event] = []
    away = state.away[seat]
    if away is not None:
        place = board.place_named(away)
        state.position[seat] = board.start(board.system_index(place.near))
        state.away[seat] = None
        events.append(
            Event(
                text=f"{seat_ref(seat)} leaves the {place.name} and sets off from the START of "
                f"the {board.system[board.system_index(place.near)].name}."
            )
        )
    home = board.start(state.systems[seat])
    for _ in range(steps):
        state.position[seat] = (state.position[seat] + 1) % board.size
        if state.position[seat] == home:
            events += start_bonus(state, seat)
    return events


def start_bonus(state: LifeState, seat: int) -> list[Event]:
    paid: dict[TokenKind, int] = {}
    for kind in KINDS:
        got = move(state.bank, state.purses[seat], kind, START_BONUS.of(kind))
        if got:
            paid[kind] = got
    bonus = tokens_text(paid)
    return [Event(text=f"{seat_ref(seat)} passes their own START and takes {bonus} from the bank.")]


def draw(state: LifeState, seat: int, deck: DeckName) -> list[Event]:
    pile = state.chance if deck == "chance" else state.bad_luck
    me = seat_ref(seat)
    if not pile:
        return [Event(text=f"The {DECK_NAMES[deck]} deck is empty: {me} draws nothing.")]
    card = pile.pop(0)
    spec = state.card(deck, card)
    if spec.keep:
        state.hands[seat].append(card)
        return [
            Event(text=f"{me} draws a Chance card and keeps it secretly."),
            Event(text=f"You keep a {spec.name} card: {spec.text}", to=[seat]),
        ]
    events = [Event(text=f"{me} draws {DECK_NAMES[deck]}: {spec.name} — {card_text(spec)}")]
    for effect in spec.effects:
        events += _effect(state, seat, effect)
    pile.append(card)
    return events


def card_text(spec: CardSpec) -> str:
    """A card as read aloud: its story, then what it does."""
    doing = " ".join(e.text(_place_name(e)) for e in spec.effects)
    return f"{spec.text} {doing}".strip()


def _place_name(effect: Effect) -> str:
    if effect.place is None:
        return ""
    return next((p.name.lower() for p in builtin_board().place if p.id == effect.place), effect.place)


def _effect(state: LifeState, seat: int, effect: Effect) -> list[Event]:
    me, purse = seat_ref(seat), state.purses[seat]
    token, n = effect.token, effect.n
    if effect.do == "gain" and token:
        got = move(state.bank, purse, token, n)
        return [Event(text=f"{me} takes {tokens_text({token: got})} from the bank.")]
    if effect.do == "pay" and token:
        paid = move(purse, state.bank, token, n)
        return [Event(text=f"{me} returns {tokens_text({token: paid})} to the bank.")]
    if effect.do == "collect" and token:
        got = sum(move(state.purses[other], purse, token, n) for other in state.others(seat))
        return [Event(text=f"{me} collects {tokens_text({token: got})} in all.")]
    if effect.do == "give" and token:
        given = sum(move(purse, state.purses[other], token, n) for other in state.others(seat))
        return [Event(text=f"{me} gives away {tokens_text({token: given})} in all.")]
    if effect.do == "skip":
        state.skips[seat] += n
        return []
    if effect.do == "goto" and effect.place:
        state.away[seat] = effect.place
        return [Event(text=f"{me} goes to the {_place_name(effect)}.")]
    if effect.do == "home":
        # Straight to one's own START: reaching it pays the bonus like passing it.
        state.away[seat] = None
        state.position[seat] = state.board.start(state.systems[seat])
        return start_bonus(state, seat)
    if effect.do == "back":
        if state.away[seat] is None:
            state.position[seat] = (state.position[seat] - n) % state.board.size
        return []
    return forward(state, seat, n) if state.away[seat] is None else []
