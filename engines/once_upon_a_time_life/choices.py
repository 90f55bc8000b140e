"""The legal moves of a seat, as menu choices. Labels name the whole move;
``steps`` group them into menus. Answer choices index the answers in the
order shown, so no key, label or step tells which one is right."""

from __future__ import annotations

from engines.core import Choice, seat_ref
from engines.once_upon_a_time_life import actions
from engines.once_upon_a_time_life.asking import LETTERS, shown_answers
from engines.once_upon_a_time_life.board import PawnSpec
from engines.once_upon_a_time_life.moves import DEFENCES, REWARD
from engines.once_upon_a_time_life.questions import LEVELS
from engines.once_upon_a_time_life.state import LifeState
from engines.once_upon_a_time_life.tokens import EXCHANGES, NAMES

A = {"easy": "an", "hard": "a"}


def pawns(state: LifeState) -> list[Choice]:
    """The free pawns, grouped by the body system each sets off from."""
    board = state.board
    found = []
    for pawn in state.free_pawns():
        system = board.system[board.system_index(pawn.system)]
        steps = [f"{system.icon} {system.name}".strip(), f"{pawn.mark} {pawn.name} pawn".strip()]
        found.append(
            Choice(
                key=f"pawn:{pawn.id}",
                label=f"Play the {pawn.name} pawn ({system.name})",
                steps=steps,
                action=actions.ChoosePawn(pawn=pawn.id),
            )
        )
    return found


def spread_pawn(state: LifeState) -> PawnSpec:
    """The first free pawn of a body system nobody plays yet (else the first free
    pawn): what a late seat is given, so players sit spread round the body."""
    free = state.free_pawns()
    taken = {p.system for s in range(state.players) if (p := state.pawn(s)) is not None}
    return next((p for p in free if p.system not in taken), free[0])


def before_roll(state: LifeState) -> list[Choice]:
    seat = state.turn
    purse = state.purses[seat]
    found: list[Choice] = []
    for give, (cost, gets) in EXCHANGES.items():
        if purse.of(give) >= cost and state.bank.of(gets) >= 1:
            text = f"{cost} {NAMES[give]} → 1 {NAMES[gets]}"
            found.append(
                Choice(
                    key=f"exchange:{give}",
                    label=f"Exchange {text} at the bank",
                    steps=["Exchange at the bank", text],
                    action=actions.Exchange(give=give),
                )
            )
    if state.held(seat, "virus"):
        for target in state.others(seat):
            found.append(
                Choice(
                    key=f"virus:{target}",
                    label=f"Attack {seat_ref(target)} with a Virus card",
                    steps=["Virus attack", seat_ref(target)],
                    action=actions.VirusAttack(target=target),
                )
            )
    if state.held(seat, "master"):
        for target in state.others(seat):
            if state.away[target] is not None:
                continue  # nobody on an additional space can be challenged
            for level in LEVELS:
                found.append(
                    Choice(
                        key=f"duel:{target}:{level}",
                        label=(
                            f"Challenge {seat_ref(target)} to a Master duel, {level.capitalize()} questions"
                        ),
                        steps=["Master duel", seat_ref(target), f"{level.capitalize()} questions"],
                        action=actions.Duel(target=target, level=level),
                    )
                )
    why = "" if found else " (no exchange, Virus attack or duel is open to you)"  # alone, it says why
    found.append(
        Choice(key="roll", label=f"Roll the die{why}", steps=["Roll the die"], action=actions.Roll())
    )
    return found


def defend(state: LifeState) -> list[Choice]:
    assert state.threat is not None
    foe = "Virus" if state.threat == "virus" else "Bacteria"
    return [
        Choice(
            key=f"defend:{token}",
            label=f"Give 1 {NAMES[token]} to fend off the {foe}",
            steps=[f"Give 1 {NAMES[token]}"],
            action=actions.Defend(token=token),
        )
        for token in DEFENCES[state.threat]
    ]


def pick(state: LifeState) -> list[Choice]:
    return [
        Choice(
            key=f"question:{level}",
            label=f"Answer {A[level]} {level.capitalize()} question (+{REWARD[level]} Globin)",
            steps=[f"{level.capitalize()} question"],
            action=actions.PickQuestion(level=level),
        )
        for level in LEVELS
    ]


def answer(state: LifeState) -> list[Choice]:
    found = [
        Choice(
            key=f"answer:{i}",
            label=f"Answer {LETTERS[i]}: {text}",
            steps=[f"{LETTERS[i]}: {text}"],
            action=actions.Answer(choice=i),
        )
        for i, text in enumerate(shown_answers(state))
    ]
    found.append(
        Choice(
            key="answer:none",
            label="Give no answer (it counts as wrong)",
            steps=["No answer"],
            action=actions.Answer(),
        )
    )
    return found


def vabanque(state: LifeState) -> list[Choice]:
    found = [
        Choice(
            key=f"vabanque:{level}",
            label=f"Va banque: {A[level]} {level.capitalize()} question "
            f"(+{REWARD[level]}, or lose the {state.earned} earned)",
            steps=[f"Va banque: {level.capitalize()}"],
            action=actions.VaBanque(level=level),
        )
        for level in LEVELS
    ]
    found.append(
        Choice(
            key="stop",
            label=f"Keep the {state.earned} Globin and end the turn",
            steps=["Keep and end the turn"],
            action=actions.VaBanque(),
        )
    )
    return found


def respond(state: LifeState, seat: int) -> list[Choice]:
    fight = state.challenge
    assert fight is not None
    duel = fight.kind == "duel"
    accept = "Take up the duel" if duel else "Take the Virus attack (pay 3 Globin)"
    found = [
        Choice(
            key="accept",
            label=accept,
            steps=["Take up the duel" if duel else "Take the attack"],
            action=actions.Respond(master=False),
        )
    ]
    if state.held(seat, "master"):
        found.append(
            Choice(
                key="master",
                label="Show a Master card to avoid the duel"
                if duel
                else "Show a Master card to repel the Virus",
                steps=["Show a Master card"],
                action=actions.Respond(master=True),
            )
        )
    return found


def spoils(state: LifeState) -> list[Choice]:
    return [
        Choice(
            key="take:globin",
            label="Take 4 Globin from the loser",
            steps=["Take 4 Globin"],
            action=actions.Spoils(take="globin"),
        ),
        Choice(
            key="take:hemo",
            label="Take 1 Hemo from the loser",
            steps=["Take 1 Hemo"],
            action=actions.Spoils(take="hemo"),
        ),
    ]
