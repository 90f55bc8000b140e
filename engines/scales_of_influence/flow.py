"""The day's main flow: Sun turns, Moon, Reading, Weighing, day reset and the endings.

:func:`settle` runs after every action: it carries out everything that needs no
decision (a finished Cosmic Event, the end of a turn, the next Reading card,
the Weighing adjustments...) until some seat must act.
"""

from __future__ import annotations

from engines.core import Event, Seat, seat_ref
from engines.scales_of_influence import effects
from engines.scales_of_influence.effects import SIDE_NAME, Events, harmony_holds, side_wins
from engines.scales_of_influence.state import (
    ENERGY_LIMIT,
    HAND_LIMIT,
    SIDES,
    SLOTS,
    Cosmic,
    Effect,
    Giving,
    Lingering,
    Prevention,
    ScaleDay,
    ShamanPick,
    Side,
    SoiState,
    Tribute,
    Turn,
    Winner,
)

TEAM_NAME = {"shadow": "Shadow", "light": "Light", "harmony": "Harmony"}


def settle(state: SoiState, events: Events) -> None:
    """Advance until a seat must decide (or the game is over)."""
    for _ in range(1000):
        if state.phase == "over":
            return
        if state.stack:
            if not _settle_top(state, events):
                return
        elif not _advance_main(state, events):
            return
    raise RuntimeError("the flow did not settle")


def _settle_top(state: SoiState, events: Events) -> bool:
    top = state.stack[-1]
    if isinstance(top, Cosmic) and not top.responders and not top.shaman_turn:
        finish_cosmic(state, events)
        return True
    if isinstance(top, Prevention) and not top.remaining:
        finish_prevention(state, events)
        return True
    if isinstance(top, Tribute) and not state.hands[top.seat]:
        # A star or a theft emptied the hand mid-Channel: the Channel fails, no Energy.
        state.stack.pop()
        events.append(Event(text=f"{seat_ref(top.seat)} has no card left: the Channel fails."))
        return True
    if isinstance(top, Effect) and top.origin == "star" and not effect_has_choice(state, top):
        state.stack.pop()
        effects.carry_out(state, top, None, None, events)
        return True
    return False


def effect_has_choice(state: SoiState, effect: Effect) -> bool:
    spec = state.card(effect.card)
    return spec.needs_target or spec.needs_side


# ----- Cosmic Events and the prevention round -----


def shaman_may_block(state: SoiState, event: Cosmic) -> bool:
    """The Shaman could still block the star on top (all public: who is Shaman, their Energy)."""
    shaman = state.shaman
    return (
        shaman is not None
        and not state.shaman_used
        and state.energy[shaman] >= 2
        and event.owners[-1] != shaman
        and len(event.stars) - 1 not in event.blocked
    )


def finish_cosmic(state: SoiState, events: Events) -> None:
    event = state.stack.pop()
    assert isinstance(event, Cosmic)
    state.discard.extend(event.stars)
    top, owner = event.stars[-1], event.owners[-1]
    name = state.card(top).short()
    if len(event.stars) - 1 in event.blocked:
        events.append(Event(text=f"🌠 The Cosmic Event ends: {name} is blocked; no star shines."))
        return
    events.append(Event(text=f"🌠 The Cosmic Event ends: {name} of {seat_ref(owner)} shines."))
    state.stack.append(Effect(card=top, owner=owner, origin="star"))


def finish_prevention(state: SoiState, events: Events) -> None:
    round_ = state.stack.pop()
    assert isinstance(round_, Prevention)
    if harmony_holds(state):
        end_game(state, "harmony", "Harmony: both sides of the Scale are equal at 5 or more.", events)
    elif round_.trigger != "harmony":
        for side in SIDES:
            if side_wins(state, side):
                end_game(
                    state, side, f"{SIDE_NAME[side]} has 10 or more Energy and the most on the Scale.", events
                )
                return
    if state.phase != "over":
        events.append(Event(text="⚖️ The end is prevented: the journey goes on.", kind="alert"))


# ----- the main flow -----


def _advance_main(state: SoiState, events: Events) -> bool:
    if state.phase == "sun":
        return _advance_sun(state, events)
    if state.phase == "moon":
        if state.moon_order:
            return False
        _start_reading(state, events)
        return True
    if state.phase == "reading":
        return _advance_reading(state, events)
    return _advance_weighing(state, events)


def _advance_sun(state: SoiState, events: Events) -> bool:
    turn = state.turn
    if turn is None:
        _dawn(state, events)
        return True
    if turn.step == "after" and not channel_possible(state, turn.seat):
        turn.step = "discard"
    if turn.step == "discard" and len(state.hands[turn.seat]) <= HAND_LIMIT:
        _end_turn(state, events)
        return True
    return False


def channel_possible(state: SoiState, seat: Seat) -> bool:
    """Any Channel action is open now (public information only)."""
    if state.turn is None or state.turn.channeled:
        return False
    energy = state.energy[seat]
    if energy >= 1 and state.deck:
        return True
    if len(state.hands[seat]) >= 2 and any(state.energy[s] for s in range(state.players) if s != seat):
        return True
    return energy >= 3 and any(p.cards for p in state.reading)


def _dawn(state: SoiState, events: Events) -> None:
    """Start of the day's Sun: cards kept from yesterday resolve, then the Traveler plays."""
    state.turn = Turn(seat=state.traveler)
    for kept in reversed(state.lingering):
        state.stack.append(Effect(card=kept.card, owner=kept.owner, origin="next_day"))
    state.discard.extend(k.card for k in state.lingering)
    state.lingering = []
    events.append(
        Event(
            text=f"☀️ Day {state.day} — Sun phase. {seat_ref(state.traveler)} is the Traveler.", kind="phase"
        )
    )


def _end_turn(state: SoiState, events: Events) -> None:
    assert state.turn is not None
    seat = state.turn.seat
    if state.energy[seat] > ENERGY_LIMIT:
        returned = effects.give_back(state, seat, state.energy[seat] - ENERGY_LIMIT)
        events.append(Event(text=f"{seat_ref(seat)} returns {returned} Energy down to {ENERGY_LIMIT}."))
    state.sun_turns += 1
    state.last_sun_seat = seat
    all_taken = all(p.holder is not None for p in state.reading)
    if state.sun_turns >= state.players and (all_taken or not state.source_tokens):
        _start_moon(state, events)
    else:
        state.turn = Turn(seat=state.left_of(seat))


def _start_moon(state: SoiState, events: Events) -> None:
    assert state.last_sun_seat is not None
    state.phase, state.turn = "moon", None
    state.moon_order = state.order_from(state.last_sun_seat)
    events.append(
        Event(
            text=f"🌙 Moon phase: from {seat_ref(state.last_sun_seat)}, each may Eclipse or pass.",
            kind="phase",
        )
    )


def _start_reading(state: SoiState, events: Events) -> None:
    state.phase, state.reading_slot = "reading", 0
    events.append(Event(text="🔮 Reading phase: Past, Present and Future resolve in order.", kind="phase"))


def _advance_reading(state: SoiState, events: Events) -> bool:
    if state.reading_slot >= len(SLOTS):
        _start_weighing(state, events)
        return True
    slot = state.reading_slot
    state.reading_slot += 1
    card, holder = state.top_card(slot), state.reading[slot].holder
    if card is not None and holder is not None:
        state.stack.append(Effect(card=card, owner=holder, origin="reading"))
        events.append(
            Event(text=f"{SLOTS[slot]}: {seat_ref(holder)} is to resolve {state.card(card).short()}.")
        )
    return True


def _start_weighing(state: SoiState, events: Events) -> None:
    state.phase, state.weigh_step, state.revealed = "weighing", "confirm", True
    shown = "; ".join(f"{SIDE_NAME[s]} bag: {_tokens(state.bags[s])}" for s in SIDES)
    events.append(Event(text=f"⚖️ Weighing phase. Influence revealed — {shown}.", kind="phase"))


def _tokens(tokens: list[int]) -> str:
    if not tokens:
        return "empty"
    return " ".join(f"{t:+d}" for t in sorted(tokens, reverse=True)) + f" (sum {sum(tokens):+d})"


def _advance_weighing(state: SoiState, events: Events) -> bool:
    step = state.weigh_step
    if step == "confirm":
        return False
    if step == "shadow":
        state.weigh_step = "end"
        _adjust(state, SIDES, events)
    elif step == "light":
        # Only a state saved by an older version, which adjusted the sides one at a time, stops here.
        state.weigh_step = "end"
        _adjust(state, ("light",), events)
    elif step == "end":
        state.weigh_step = "done"
        for side in SIDES:
            if side_wins(state, side):
                effects.open_prevention(state, side, events)
    else:
        _close_day(state, events)
    return True


def _adjust(state: SoiState, sides: tuple[Side, ...], events: Events) -> None:
    """The rulebook's Adjust Scale: both bags move the Scale, then it is judged once.
    Removals go first, so Energy one side gives back can feed the other."""
    totals = {side: sum(state.bags[side]) for side in sides}
    moved = {side: 0 for side in sides}
    for side in sorted(sides, key=lambda s: totals[s] >= 0):
        moved[side] = effects.shift_scale(state, side, totals[side])
    for side in sides:
        text = f"The {SIDE_NAME[side]} side moves {moved[side]:+d} to {state.scale[side]}."
        events.append(Event(text=text))
    effects.scale_changed(state, events)


def _close_day(state: SoiState, events: Events) -> None:
    state.days.append(
        ScaleDay(
            day=state.day,
            shadow=state.scale["shadow"],
            light=state.scale["light"],
            influence={side: sum(state.bags[side]) for side in SIDES},
        )
    )
    if state.final_day:
        _final_judgement(state, events)
    else:
        _new_day(state, events)


def _final_judgement(state: SoiState, events: Events) -> None:
    shadow, light = state.scale["shadow"], state.scale["light"]
    if shadow != light:
        side: Side = "shadow" if shadow > light else "light"
        end_game(
            state, side, f"The journey ends: {SIDE_NAME[side]} has the most Energy on the Scale.", events
        )
    elif state.harmony:
        end_game(state, "harmony", "The journey ends with an equal Scale: Harmony wins.", events)
    else:
        end_game(state, "draw", "The journey ends with an equal Scale: Shadow and Light share it.", events)


def _new_day(state: SoiState, events: Events) -> None:
    state.traveler = state.left_of(state.traveler)
    state.day += 1
    last = state.left_of(state.first_traveler, -1)
    if state.players >= 4 and state.traveler == last and not state.final_day:
        state.final_day = True
        events.append(
            Event(text="🧭 The Traveler reaches the last player: this day is the last.", kind="alert")
        )
    _reset_board(state)
    state.phase, state.sun_turns, state.last_sun_seat, state.turn = "sun", 0, None, None
    _pick_shaman(state, events)


def _reset_board(state: SoiState) -> None:
    for side in SIDES:
        state.source_tokens.extend(state.bags[side])
        state.bags[side] = []
    for placement in state.reading:
        top = placement.cards[-1] if placement.cards else None
        if (
            top is not None
            and placement.resolved
            and state.card(top).next_day
            and placement.holder is not None
        ):
            state.lingering.append(Lingering(card=top, owner=placement.holder))
            placement.cards.pop()
        state.discard.extend(placement.cards)
        placement.cards, placement.holder, placement.resolved = [], None, False
    state.revealed, state.weigh_step, state.reading_slot = False, "confirm", 0


def mark_resolved(state: SoiState, effect: Effect) -> None:
    """A Reading card that really resolved (was not blocked) may affect the next day."""
    if effect.origin == "reading":
        for placement in state.reading:
            if placement.cards and placement.cards[-1] == effect.card:
                placement.resolved = True


def _pick_shaman(state: SoiState, events: Events) -> None:
    state.shaman_used = False
    most = max(state.energy)
    tied = [s for s in state.order_from(state.traveler) if state.energy[s] == most]
    if len(tied) == 1:
        make_shaman(state, tied[0], events)
    else:
        state.shaman = None
        state.stack.append(ShamanPick(chooser=state.traveler, candidates=tied))
        events.append(Event(text=f"Tie for the most Energy: {seat_ref(state.traveler)} picks the Shaman."))


def make_shaman(state: SoiState, seat: Seat, events: Events) -> None:
    state.shaman = seat
    events.append(Event(text=f"🪶 {seat_ref(seat)} becomes the Shaman."))


def end_game(state: SoiState, winner: Winner, why: str, events: Events) -> None:
    for item in state.stack:  # interrupted mid-way: put tokens and stars back where they belong
        if isinstance(item, Giving):
            state.source_tokens.extend(item.drawn)
        elif isinstance(item, Cosmic):
            state.discard.extend(item.stars)
    state.phase, state.stack, state.turn = "over", [], None
    state.winner = winner
    state.ending = why
    events.append(Event(text=f"🏁 {why}", kind="end"))
    reveal = ", ".join(f"{seat_ref(s)} {TEAM_NAME[a]}" for s, a in enumerate(state.alignments))
    events.append(Event(text=f"Alignments: {reveal}.", kind="end"))


def conserved(state: SoiState) -> tuple[int, int]:
    """(Energy, tokens) in play: always (50, 16)."""
    energy = state.source_energy + sum(state.energy) + sum(state.scale.values())
    drawn = sum(len(i.drawn) for i in state.stack if isinstance(i, Giving))
    tokens = len(state.source_tokens) + drawn + sum(len(b) for b in state.bags.values())
    return energy, tokens
