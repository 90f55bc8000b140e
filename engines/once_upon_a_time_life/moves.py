"""Carrying out a validated move: the bank, the roll, the spaces, the questions
and the turn's end. Duels and Virus attacks are in ``duels.py``, card effects
in ``effects.py``."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.once_upon_a_time_life import actions, duels, effects
from engines.once_upon_a_time_life.asking import ask, reveal
from engines.once_upon_a_time_life.board import SPACE_NAMES
from engines.once_upon_a_time_life.state import LifeState, Threat
from engines.once_upon_a_time_life.tokens import EXCHANGES, NAMES, TokenKind, exchange, move

# The tokens that fend off each threat, in the rulebook's order.
DEFENCES: dict[Threat, tuple[TokenKind, TokenKind]] = {
    "virus": ("leukocyte", "globin"),
    "bacteria": ("medicine", "globin"),
}
REWARD = {"easy": 1, "hard": 2}


def carry_out(state: LifeState, seat: int, action: actions.LifeAction) -> list[Event]:
    me = seat_ref(seat)
    if isinstance(action, actions.ChoosePawn):
        return _choose_pawn(state, seat, action.pawn)
    if isinstance(action, actions.Exchange):
        cost, gets = EXCHANGES[action.give]
        exchange(state.purses[seat], state.bank, action.give)
        return [Event(text=f"{me} exchanges {cost} {NAMES[action.give]} for 1 {NAMES[gets]} at the bank.")]
    if isinstance(action, actions.VirusAttack):
        return duels.attack(state, seat, action.target)
    if isinstance(action, actions.Duel):
        return duels.challenge(state, seat, action.target, action.level)
    if isinstance(action, actions.Respond):
        return duels.respond(state, seat, action.master)
    if isinstance(action, actions.Spoils):
        return duels.spoils(state, seat, action.take)
    if isinstance(action, actions.Roll):
        return roll(state, seat)
    if isinstance(action, actions.Defend):
        return _defend(state, seat, action.token)
    if isinstance(action, actions.PickQuestion):
        return ask(state, action.level, seat, "space")
    if isinstance(action, actions.VaBanque):
        if action.level is None:
            return [Event(text=f"{me} keeps what they earned."), *end_turn(state)]
        state.vabanque_used = True
        return [Event(text=f"{me} plays va banque!"), *ask(state, action.level, seat, "vabanque")]
    assert isinstance(action, actions.Answer)
    return _answered(state, seat, action.choice)


def roll(state: LifeState, seat: int) -> list[Event]:
    die = state.rng.below(6) + 1
    state.last_roll = die
    events = [Event(text=f"{seat_ref(seat)} rolls a {die}.")]
    events += effects.forward(state, seat, die)
    return events + land(state, seat)


def land(state: LifeState, seat: int) -> list[Event]:
    """Carry out the task of the space the pawn stands on."""
    space = state.position[seat]
    kind = state.board.kind(space)
    me = seat_ref(seat)
    system = state.board.system[state.board.system_of(space)].name
    events = [Event(text=f"{me} lands on {SPACE_NAMES[kind]} ({system}).")]
    if kind in ("leukocyte", "medicine"):
        got = move(state.bank, state.purses[seat], kind, 1)
        events.append(Event(text=f"{me} takes {got} {NAMES[kind]} from the bank."))
    elif kind in DEFENCES:
        threat: Threat = "virus" if kind == "virus" else "bacteria"
        held = [t for t in DEFENCES[threat] if state.purses[seat].of(t)]
        if len(held) == 2:
            state.stage, state.threat = "defend", threat
            return events
        if held:
            return events + _defend(state, seat, held[0], threat=threat)
        state.skips[seat] += 1
        events.append(Event(text=f"{me} has nothing to defend themselves with and loses a turn."))
    elif kind in ("chance", "bad_luck"):
        events += effects.draw(state, seat, kind)
    elif kind == "question":
        state.stage = "pick"
        return events
    return events + end_turn(state)


def _defend(state: LifeState, seat: int, token: TokenKind, threat: str | None = None) -> list[Event]:
    against = threat or state.threat or "virus"
    move(state.purses[seat], state.bank, token, 1)
    state.threat = None
    foe = "the Virus" if against == "virus" else "the Bacteria"
    return [Event(text=f"{seat_ref(seat)} fends off {foe} with 1 {NAMES[token]}."), *end_turn(state)]


def _answered(state: LifeState, seat: int, choice: int | None) -> list[Event]:
    question = state.question
    assert question is not None
    right = choice == question.correct
    events = reveal(state, seat, choice)
    if question.purpose in ("attack", "counter"):
        return events + duels.answered(state, right)
    reward = REWARD[question.level]
    state.question = None
    me = seat_ref(seat)
    if question.purpose == "space":
        if not right:
            return events + end_turn(state)
        state.earned = move(state.bank, state.purses[seat], "globin", reward)
        events.append(Event(text=f"{me} earns {state.earned} Globin."))
        state.stage = "vabanque"
        return events
    if right:
        got = move(state.bank, state.purses[seat], "globin", reward)
        events.append(Event(text=f"Va banque won: {me} earns {got} more Globin."))
    else:
        lost = move(state.purses[seat], state.bank, "globin", state.earned)
        events.append(Event(text=f"Va banque lost: {me} gives back the {lost} Globin of the first answer."))
    return events + end_turn(state)


def _choose_pawn(state: LifeState, seat: int, pawn_id: str) -> list[Event]:
    """Set the pawn on its system's START; the next in turn order chooses, and
    after the last one the first player rolls."""
    board = state.board
    pawn = board.pawn_named(pawn_id)
    assert pawn is not None
    state.pawns[seat] = pawn.id
    state.systems[seat] = board.system_index(pawn.system)
    state.position[seat] = board.start(state.systems[seat])
    system = board.system[state.systems[seat]].name
    events = [
        Event(text=f"{seat_ref(seat)} chooses the {pawn.name} pawn and sets it on the START of the {system}.")
    ]
    state.turn = (seat + 1) % state.players
    if all(p is not None for p in state.pawns):
        state.stage = "act"
        events.append(Event(text=f"Every pawn is on its START: {seat_ref(state.turn)} rolls first."))
    return events


def end_turn(state: LifeState) -> list[Event]:
    """Pass the die on, past every player who loses a turn."""
    state.stage, state.threat, state.question = "act", None, None
    state.earned, state.vabanque_used = 0, False
    if state.winner is not None:
        state.stage = "over"
        return []
    events: list[Event] = []
    seat = state.turn
    while True:
        seat = (seat + 1) % state.players
        if seat == 0:
            state.turn_no += 1
        if not state.skips[seat]:
            break
        state.skips[seat] -= 1
        events.append(Event(text=f"{seat_ref(seat)} loses this turn."))
    state.turn = seat
    return events
