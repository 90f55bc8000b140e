"""Master duels and Virus attacks: the shown card, the target's answer (a
Master of their own, or not), the questions, the dice decider and the spoils."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.once_upon_a_time_life.asking import ask
from engines.once_upon_a_time_life.questions import Level
from engines.once_upon_a_time_life.state import Challenge, LifeState
from engines.once_upon_a_time_life.tokens import NAMES, Paid, TokenKind, exchanges_text, settle, tokens_text

VIRUS_DEBT = 3
SPOILS: dict[TokenKind, int] = {"globin": 4, "hemo": 1}


def _show(state: LifeState, seat: int, keep: str) -> int:
    card = state.held(seat, keep)[0]
    state.hands[seat].remove(card)
    return card


def challenge(state: LifeState, seat: int, target: int, level: Level) -> list[Event]:
    card = _show(state, seat, "master")
    state.challenge = Challenge(kind="duel", by=seat, target=target, level=level, cards=[card])
    state.stage = "respond"
    return [
        Event(
            text=f"{seat_ref(seat)} shows a Master card and challenges {seat_ref(target)} to a duel "
            f"with {level.capitalize()} questions."
        )
    ]


def attack(state: LifeState, seat: int, target: int) -> list[Event]:
    card = _show(state, seat, "virus")
    state.challenge = Challenge(kind="virus", by=seat, target=target, cards=[card])
    state.stage = "respond"
    return [Event(text=f"{seat_ref(seat)} attacks {seat_ref(target)} with a Virus card!")]


def respond(state: LifeState, seat: int, master: bool) -> list[Event]:
    fight = state.challenge
    assert fight is not None
    me = seat_ref(seat)
    if master:
        fight.cards.append(_show(state, seat, "master"))
        what = "avoids the duel" if fight.kind == "duel" else "repels the Virus attack"
        return [Event(text=f"{me} shows a Master card and {what}."), *_close(state)]
    if fight.kind == "duel":
        assert fight.level is not None
        return [Event(text=f"{me} takes up the duel."), *ask(state, fight.level, seat, "attack")]
    # "gives up all the tokens they have collected, except for Hemo tokens": a Hemo is not changed here.
    paid = settle(state.purses[seat], state.bank, state.bank, "globin", VIRUS_DEBT, break_hemo_too=False)
    return [
        *_exchanges(seat, paid),
        Event(text=f"{me} pays {tokens_text(paid.tokens)} to the bank for the Virus."),
        *_close(state),
    ]


def answered(state: LifeState, right: bool) -> list[Event]:
    """After an answer in a duel: the counterattack, the dice, or the winner."""
    fight, question = state.challenge, state.question
    assert fight is not None and question is not None and fight.level is not None
    state.question = None
    if question.purpose == "attack":
        if not right:
            return _won(state, fight.by)
        return [
            Event(text=f"{seat_ref(fight.target)} counterattacks!"),
            *ask(state, fight.level, fight.by, "counter"),
        ]
    if not right:
        return _won(state, fight.target)
    return _dice(state)


def _dice(state: LifeState) -> list[Event]:
    fight = state.challenge
    assert fight is not None
    events = [Event(text="Both answered right: two rolls of the die each decide the duel.")]
    while True:
        rolls = [[state.rng.below(6) + 1 for _ in range(2)] for _ in (fight.by, fight.target)]
        fight.dice.append([*rolls[0], *rolls[1]])
        totals = [sum(r) for r in rolls]
        pairs = zip((fight.by, fight.target), rolls, strict=True)
        said = [f"{seat_ref(s)} rolls {r[0]}+{r[1]} = {sum(r)}" for s, r in pairs]
        events.append(Event(text=f"{said[0]}, {said[1]}."))
        if totals[0] != totals[1]:
            break
        events.append(Event(text="A tie: both roll again."))
    return events + _won(state, fight.by if totals[0] > totals[1] else fight.target)


def _won(state: LifeState, winner: int) -> list[Event]:
    fight = state.challenge
    assert fight is not None
    fight.winner = winner
    state.stage = "spoils"
    return [Event(text=f"{seat_ref(winner)} wins the duel and takes 4 Globin or 1 Hemo.")]


def loser(fight: Challenge) -> int:
    return fight.target if fight.winner == fight.by else fight.by


def spoils(state: LifeState, seat: int, take: TokenKind) -> list[Event]:
    fight = state.challenge
    assert fight is not None
    beaten = loser(fight)
    purse = state.purses[beaten]
    paid = settle(purse, state.bank, state.purses[seat], take, SPOILS[take], break_hemo_too=True)
    asked = f"{SPOILS[take]} {NAMES[take]}"
    text = f"{seat_ref(seat)} takes {asked} from {seat_ref(beaten)}"
    if paid.everything and not paid.tokens:
        text = f"{seat_ref(beaten)} has no tokens at all to give {seat_ref(seat)}"
    elif paid.everything:
        given = tokens_text(paid.tokens)
        text = f"{seat_ref(beaten)} is short of {asked} and gives {seat_ref(seat)} everything: {given}"
    elif paid.tokens != {take: SPOILS[take]}:
        text = f"{seat_ref(seat)} takes {tokens_text(paid.tokens)}, worth {asked}, from {seat_ref(beaten)}"
    return [*_exchanges(beaten, paid), Event(text=f"{text}."), *_close(state)]


def _exchanges(seat: int, paid: Paid) -> list[Event]:
    if not paid.exchanged:
        return []
    return [
        Event(
            text=f"{seat_ref(seat)} exchanges {exchanges_text(paid.exchanged)} at the bank "
            "(the conversion card)."
        )
    ]


def _close(state: LifeState) -> list[Event]:
    """The shown cards go under the Chance deck; the turn goes on before its roll."""
    fight = state.challenge
    assert fight is not None
    state.chance += fight.cards
    state.challenge = None
    state.stage = "act"
    return []
