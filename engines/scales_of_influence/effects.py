"""The primitives: moving Energy, cards and Influence tokens, and card abilities built from them.

Energy only ever moves between the source, players and the Scale, and tokens
between the source, a giver's hand and the bags, so both totals are conserved by
construction. Every change of the Scale goes through :func:`scale_changed`,
which checks Harmony's objective at once.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.core import Event, Seat, seat_ref
from engines.scales_of_influence.cards import Step
from engines.scales_of_influence.state import SIDES, Alignment, Effect, Giving, Prevention, Side, SoiState
from engines.words import plural

Events = list[Event]
SIDE_NAME = {"shadow": "Shadow", "light": "Light"}


def other_side(side: Side) -> Side:
    return "light" if side == "shadow" else "shadow"


# ----- Energy -----


def gain(state: SoiState, seat: Seat, n: int) -> int:
    moved = min(n, state.source_energy)
    state.source_energy -= moved
    state.energy[seat] += moved
    return moved


def give_back(state: SoiState, seat: Seat, n: int) -> int:
    """Return Energy from a player to the source."""
    moved = min(n, state.energy[seat])
    state.energy[seat] -= moved
    state.source_energy += moved
    return moved


def transfer(state: SoiState, giver: Seat, taker: Seat, n: int) -> int:
    moved = min(n, state.energy[giver])
    state.energy[giver] -= moved
    state.energy[taker] += moved
    return moved


def harmony_holds(state: SoiState) -> bool:
    return state.harmony and state.scale["shadow"] == state.scale["light"] >= 5


def side_wins(state: SoiState, side: Side) -> bool:
    return state.scale[side] >= 10 and state.scale[side] > state.scale[other_side(side)]


def scale_changed(state: SoiState, events: Events) -> None:
    """Harmony wins the moment both sides are equal at 5 or more (unless prevented)."""
    if state.phase == "over" or any(isinstance(item, Prevention) for item in state.stack):
        return
    if harmony_holds(state):
        open_prevention(state, "harmony", events)


def open_prevention(state: SoiState, trigger: Alignment, events: Events) -> None:
    reason = {
        "harmony": "the Scale is in Harmony",
        "shadow": "Shadow leads the Scale",
        "light": "Light leads the Scale",
    }[trigger]
    state.stack.append(Prevention(trigger=trigger, remaining=state.order_from(state.traveler)))
    events.append(
        Event(
            text=f"⚖️ The game would end: {reason}. Each player, from the Traveler "
            f"{seat_ref(state.traveler)}, may prevent it (Shaman or Shooting Star).",
            kind="alert",
        )
    )


def shift_scale(state: SoiState, side: Side, n: int) -> int:
    """Add ``n`` Energy to a side from the source (``n`` < 0: remove it to the
    source), as far as the source and the side allow, without judging the Scale.
    Returns the change actually made."""
    moved = min(n, state.source_energy) if n >= 0 else -min(-n, state.scale[side])
    state.source_energy -= moved
    state.scale[side] += moved
    return moved


def scale_add(state: SoiState, side: Side, n: int, events: Events) -> int:
    moved = shift_scale(state, side, n)
    scale_changed(state, events)
    return moved


def scale_remove(state: SoiState, side: Side, n: int, events: Events) -> int:
    moved = -shift_scale(state, side, -n)
    scale_changed(state, events)
    return moved


def scale_move(state: SoiState, side: Side, n: int, events: Events) -> int:
    moved = min(n, state.scale[side])
    state.scale[side] -= moved
    state.scale[other_side(side)] += moved
    scale_changed(state, events)
    return moved


# ----- cards -----


def draw(state: SoiState, seat: Seat, n: int, events: Events) -> list[int]:
    drawn = [state.deck.pop() for _ in range(min(n, len(state.deck)))]
    state.hands[seat].extend(drawn)
    if drawn:
        names = ", ".join(state.card(c).short() for c in drawn)
        events.append(Event(text=f"You draw {names}.", to=[seat]))
    if not state.deck and not state.final_day:
        state.final_day = True
        events.append(Event(text="🂠 The final tarot card is drawn: this day is the last.", kind="alert"))
    return drawn


def discard_from_hand(state: SoiState, seat: Seat, cards: list[int]) -> str:
    for card in cards:
        state.hands[seat].remove(card)
        state.discard.append(card)
    return ", ".join(state.card(c).short() for c in cards)


def random_cards(state: SoiState, seat: Seat, n: int) -> list[int]:
    picked: list[int] = []
    for _ in range(min(n, len(state.hands[seat]))):
        picked.append(state.hands[seat].pop(state.rng.below(len(state.hands[seat]))))
    return picked


# ----- Influence tokens -----


def draw_tokens(state: SoiState, n: int) -> list[int]:
    return [
        state.source_tokens.pop(state.rng.below(len(state.source_tokens)))
        for _ in range(min(n, len(state.source_tokens)))
    ]


def start_giving(state: SoiState, seat: Seat, events: Events) -> None:
    drawn = draw_tokens(state, 2)
    if not drawn:
        events.append(Event(text=f"{seat_ref(seat)} finds the Influence source empty."))
        return
    state.stack.append(Giving(seat=seat, drawn=drawn))
    shown = " and ".join(f"{t:+d}" for t in drawn)
    events.append(Event(text=f"{seat_ref(seat)} draws Influence in secret."))
    events.append(Event(text=f"You draw Influence {shown}: put one in a bag.", to=[seat]))


def _return_random_tokens(state: SoiState, n: int) -> None:
    for _ in range(n):
        pool = [(side, i) for side in SIDES for i in range(len(state.bags[side]))]
        if not pool:
            return
        side, index = pool[state.rng.below(len(pool))]
        state.source_tokens.append(state.bags[side].pop(index))


def _switch_tokens(state: SoiState, side: Side, n: int) -> None:
    for _ in range(min(n, len(state.bags[side]))):
        token = state.bags[side].pop(state.rng.below(len(state.bags[side])))
        state.bags[other_side(side)].append(token)


def _blind_tokens(state: SoiState, side: Side, n: int) -> None:
    state.bags[side].extend(draw_tokens(state, n))


# ----- abilities -----


class Context:
    """One ability being carried out: who, at whom, on which side."""

    def __init__(
        self, state: SoiState, effect: Effect, target: Seat | None, side: Side | None, events: Events
    ) -> None:
        self.state, self.effect, self.events = state, effect, events
        self.owner = effect.owner
        self.target = target if target is not None else state.left_of(effect.owner)
        self.side: Side = side or "shadow"
        self.name = state.card(effect.card).name

    def say(self, text: str) -> None:
        self.events.append(Event(text=f"{seat_ref(self.owner)} ({self.name}): {text}"))


def _gain(c: Context, n: int) -> None:
    c.say(f"gains {gain(c.state, c.owner, n)} Energy.")


def _take(c: Context, n: int) -> None:
    c.say(f"takes {transfer(c.state, c.target, c.owner, n)} Energy from {seat_ref(c.target)}.")


def _drain_all(c: Context, n: int) -> None:
    total = sum(transfer(c.state, s, c.owner, n) for s in c.state.order_from(c.owner)[1:])
    c.say(f"takes {total} Energy from the other players ({n} each at most).")


def _scale_add(c: Context, n: int) -> None:
    moved = scale_add(c.state, c.side, n, c.events)
    c.say(f"adds {moved} Energy to the {SIDE_NAME[c.side]} side.")


def _scale_remove(c: Context, n: int) -> None:
    moved = scale_remove(c.state, c.side, n, c.events)
    c.say(f"removes {moved} Energy from the {SIDE_NAME[c.side]} side.")


def _scale_move(c: Context, n: int) -> None:
    moved = scale_move(c.state, c.side, n, c.events)
    c.say(f"moves {moved} Energy from {SIDE_NAME[c.side]} to {SIDE_NAME[other_side(c.side)]}.")


def _draw(c: Context, n: int) -> None:
    got = draw(c.state, c.owner, n, c.events)
    c.say(f"draws {plural(len(got), 'card')}.")


def _steal_card(c: Context, n: int) -> None:
    taken = random_cards(c.state, c.target, n)
    c.state.hands[c.owner].extend(taken)
    c.say(f"takes {plural(len(taken), 'random card')} from {seat_ref(c.target)}.")
    if taken:
        names = ", ".join(c.state.card(x).short() for x in taken)
        c.events.append(
            Event(
                text=f"{seat_ref(c.owner)} takes {names} from {seat_ref(c.target)}.",
                to=sorted({c.owner, c.target}),
            )
        )


def _discard_random(c: Context, n: int) -> None:
    _discard_at_random(c, c.target, n)


def _discard_at_random(c: Context, seat: Seat, n: int) -> None:
    lost = random_cards(c.state, seat, n)
    c.state.discard.extend(lost)
    names = ", ".join(c.state.card(x).short() for x in lost) or "nothing"
    c.say(f"{seat_ref(seat)} discards {names} at random.")


def _each_discard(c: Context, n: int) -> None:
    for seat in c.state.order_from(c.owner)[1:]:
        _discard_at_random(c, seat, n)


def _give_influence(c: Context, n: int) -> None:
    start_giving(c.state, c.owner, c.events)


def _blind_token(c: Context, n: int) -> None:
    _blind_tokens(c.state, c.side, n)
    c.say(f"puts up to {plural(n, 'random token')} from the source into the {SIDE_NAME[c.side]} bag, unseen.")


def _switch_token(c: Context, n: int) -> None:
    _switch_tokens(c.state, c.side, n)
    c.say(
        f"moves up to {plural(n, 'random token')} from the {SIDE_NAME[c.side]} bag to the "
        f"{SIDE_NAME[other_side(c.side)]} bag, unseen."
    )


def _return_token(c: Context, n: int) -> None:
    _return_random_tokens(c.state, n)
    c.say(f"returns up to {plural(n, 'random token')} from the bags to the source, unseen.")


def _block(c: Context, n: int) -> None:
    below = c.state.stack[-1] if c.state.stack else None
    if isinstance(below, Effect):
        c.state.stack.pop()
        c.say(f"blocks {c.state.card(below.card).short()}: it does not resolve.")
    else:
        c.say("finds nothing to block.")


PRIMITIVES: dict[str, Callable[[Context, int], None]] = {
    "gain": _gain,
    "take": _take,
    "drain_all": _drain_all,
    "scale_add": _scale_add,
    "scale_remove": _scale_remove,
    "scale_move": _scale_move,
    "draw": _draw,
    "steal_card": _steal_card,
    "discard_random": _discard_random,
    "each_discard": _each_discard,
    "give_influence": _give_influence,
    "blind_token": _blind_token,
    "switch_token": _switch_token,
    "return_token": _return_token,
    "block": _block,
}


def carry_out(
    state: SoiState, effect: Effect, target: Seat | None, side: Side | None, events: Events
) -> None:
    """Resolve ``effect`` (already taken off the stack) step by step."""
    context = Context(state, effect, target, side, events)
    steps: list[Step] = state.card(effect.card).effect
    for step in steps:
        if state.phase == "over":
            return
        PRIMITIVES[step.do](context, step.n)
