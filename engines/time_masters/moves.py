"""Carrying out a validated move, the card effects, and the turn's cleanup."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.time_masters import actions
from engines.time_masters.cards import CardSpec
from engines.time_masters.state import Timer, TmState


def carry_out(state: TmState, seat: int, action: actions.TmAction) -> list[Event]:
    me = seat_ref(seat)
    if isinstance(action, actions.Activate):
        return _activate(state, seat, action.timer)
    if isinstance(action, actions.Delay):
        timer = _timer(state, seat, action.timer)
        state.hands[seat].remove(action.card)
        timer.delays.append(action.card)
        state.handled.append(timer.card)
        _after_timer_step(state)
        return [
            Event(text=f"{me} delays {state.name(timer.card)} with a card from hand, face down."),
            Event(text=f"You delay {state.name(timer.card)} with {state.name(action.card)}.", to=[seat]),
        ]
    if isinstance(action, actions.Cast):
        return _cast(state, seat, action.card)
    if isinstance(action, actions.Focus):
        state.hands[seat].remove(action.card)
        state.played.append(action.card)
        state.acted = True
        return [
            Event(text=f"{me} plays the focus {state.name(action.card)}."),
            *_effects(state, seat, state.spec(action.card)),
        ]
    if isinstance(action, actions.SetTimer):
        state.hands[seat].remove(action.card)
        state.timers[seat].append(Timer(card=action.card))
        state.acted = True
        return [Event(text=f"{me} sets the timer {state.name(action.card)}.")]
    if isinstance(action, actions.DiscardTimer):
        # Not a play: the turn may still end in a Rest, whose refill replaces the card.
        state.hands[seat].remove(action.card)
        state.discards[seat].append(action.card)
        return [
            Event(
                text=f"{me} discards the timer {state.name(action.card)} from hand: "
                f"no room to set it (at most {state.options.max_timers} in play)."
            )
        ]
    if isinstance(action, actions.Load):
        timer = _timer(state, seat, action.timer)
        state.hands[seat].remove(action.card)
        state.ke[seat] -= state.spec(action.card).cost
        timer.spells.append(action.card)
        state.acted = True
        return [
            Event(
                text=f"{me} lays a spell face down on {state.name(timer.card)} "
                f"({len(timer.spells)}/{state.spec(timer.card).capacity})."
            ),
            Event(text=f"You lay {state.name(action.card)} on {state.name(timer.card)}.", to=[seat]),
        ]
    if isinstance(action, actions.Rest):
        state.ke[seat] = state.options.ke
        return [Event(text=f"{me} rests and recovers all their Kè."), *end_turn(state)]
    if isinstance(action, actions.EndMain):
        state.phase = "access"
        return []
    if isinstance(action, actions.Buy):
        return _buy(state, seat, action)
    assert isinstance(action, actions.EndTurn)
    return end_turn(state)


def _timer(state: TmState, seat: int, card: int) -> Timer:
    return next(t for t in state.timers[seat] if t.card == card)


def _activate(state: TmState, seat: int, card: int) -> list[Event]:
    timer = _timer(state, seat, card)
    state.timers[seat].remove(timer)
    state.discards[seat] += [timer.card, *timer.delays]
    state.released += timer.spells
    state.activated = True
    spells = ", ".join(state.name(c) for c in timer.spells)
    _after_timer_step(state)
    return [Event(text=f"{seat_ref(seat)} activates {state.name(card)}: {spells} must be cast this turn.")]


def _after_timer_step(state: TmState) -> None:
    if not state.full_timers(state.turn):
        state.phase = "main"


def _cast(state: TmState, seat: int, card: int) -> list[Event]:
    spec = state.spec(card)
    if card in state.released:
        state.released.remove(card)
        source = " from a timer"
    else:
        state.hands[seat].remove(card)
        state.ke[seat] -= spec.cost
        source = ""
    state.played.append(card)
    state.spells_cast += 1
    state.acted = True
    return [Event(text=f"{seat_ref(seat)} casts {spec.name}{source}."), *_effects(state, seat, spec)]


def _effects(state: TmState, seat: int, spec: CardSpec) -> list[Event]:
    """A card's effects, each done as far as possible."""
    events: list[Event] = []
    limit = state.options.ke
    for effect in spec.effects:
        if effect.do == "gain_ke":
            state.ke[seat] = min(limit, state.ke[seat] + effect.n)
        elif effect.do == "refresh_ke":
            state.ke[seat] = limit
        elif effect.do == "access":
            state.bonus_access += effect.n
        elif effect.do == "draw":
            events += draw(state, seat, effect.n)
        elif effect.do == "drain":
            for other in _others(state, seat):
                state.ke[other] = max(0, state.ke[other] - effect.n)
            events.append(Event(text=f"Every other player loses {effect.n} Kè (never below 0)."))
        elif effect.do == "disrupt":
            for other in _others(state, seat):
                events += _discard_random(state, other, effect.n)
    return events


def _others(state: TmState, seat: int) -> list[int]:
    return [(seat + i) % state.players for i in range(1, state.players)]


def _discard_random(state: TmState, seat: int, n: int) -> list[Event]:
    lost = []
    for _ in range(min(n, len(state.hands[seat]))):
        card = state.hands[seat].pop(state.rng.below(len(state.hands[seat])))
        state.discards[seat].append(card)
        lost.append(state.name(card))
    if not lost:
        return [Event(text=f"{seat_ref(seat)} has no card to discard.")]
    return [Event(text=f"{seat_ref(seat)} discards {', '.join(lost)} at random.")]


def draw(state: TmState, seat: int, n: int) -> list[Event]:
    """Draw ``n`` cards (an empty deck is refilled from the shuffled discard pile)."""
    drawn: list[int] = []
    for _ in range(n):
        if not state.decks[seat] and state.discards[seat]:
            state.decks[seat] = state.discards[seat]
            state.discards[seat] = []
            state.rng.shuffle(state.decks[seat])
        if not state.decks[seat]:
            break
        drawn.append(state.decks[seat].pop())
    state.hands[seat] += drawn
    if not drawn:
        return []
    names = ", ".join(state.name(c) for c in drawn)
    return [
        Event(text=f"{seat_ref(seat)} draws {len(drawn)} card{'s' if len(drawn) != 1 else ''}."),
        Event(text=f"You draw {names}.", to=[seat]),
    ]


def _buy(state: TmState, seat: int, action: actions.Buy) -> list[Event]:
    pile = state.spheres[action.level - 1]
    card = pile.pop(1 if action.hidden else 0)
    state.access_spent += action.level + (1 if action.hidden else 0)
    state.bought_from.append(action.level)
    state.hands[seat].append(card)
    me = seat_ref(seat)
    events = (
        [
            Event(text=f"{me} buys the hidden card of sphere {action.level}."),
            Event(text=f"The hidden card is {state.name(card)}.", to=[seat]),
        ]
        if action.hidden
        else [Event(text=f"{me} buys {state.name(card)} from sphere {action.level}.")]
    )
    if not pile:
        events.append(Event(text=f"Sphere {action.level} is empty."))
    return events


def end_turn(state: TmState) -> list[Event]:
    """Cleanup: discard what was played, refill the hand, then end the game or pass the turn."""
    seat = state.turn
    state.discards[seat] += state.played
    state.played = []
    room = state.options.hand_limit - state.delaying(seat) - len(state.hands[seat])
    events = draw(state, seat, max(0, room))
    if state.empty_spheres() >= 2:
        state.phase = "over"
        return [*events, Event(text="Two spheres are empty: the game ends with this turn.", kind="result")]
    state.turn = (seat + 1) % state.players
    if state.turn == 0:
        state.turn_no += 1
    start_turn(state)
    return events


def start_turn(state: TmState) -> None:
    state.released, state.handled, state.bought_from = [], [], []
    state.activated = state.acted = False
    state.spells_cast = state.bonus_access = state.access_spent = 0
    state.phase = "timer" if state.full_timers(state.turn) else "main"
