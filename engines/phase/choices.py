"""The legal moves of a seat, as menu choices. Labels name the whole move;
``steps`` group them (what to do, then which card); ``detail`` is the text of
the card the choice names, as the choosing seat may read it."""

from __future__ import annotations

from collections.abc import Callable

from engines.core import Choice, seat_ref
from engines.phase import costs, skirmish
from engines.phase.actions import (
    Attack,
    Cancel,
    Choose,
    Done,
    Lock,
    Oppose,
    Order,
    Pass,
    PhaseResource,
    Pick,
    Resolve,
    Send,
    SetX,
    Skill,
    Train,
)
from engines.phase.state import Pending, PhState

LABEL_MAX = 80


def _names(state: PhState, cards: list[int], title: Callable[[int], str]) -> dict[int, str]:
    """Each card's name, numbered where two cards would read the same."""
    seen: dict[str, int] = {}
    out = {}
    for card in cards:
        name = title(card)
        seen[name] = seen.get(name, 0) + 1
        out[card] = name if seen[name] == 1 else f"{name} #{seen[name]}"
    return out


def fit(label: str) -> str:
    """A label within a button's 80 characters (a custom set's titles may be long)."""
    return label if len(label) <= LABEL_MAX else label[: LABEL_MAX - 1] + "…"


def _distinct(state: PhState, cards: list[int], flipped: bool = False) -> list[int]:
    """One card of each design and face: such copies are interchangeable."""
    first: dict[tuple[str, int, bool], int] = {}
    for card in cards:
        first.setdefault((state.cards[card], state.face[card] ^ int(flipped), state.is_locked(card)), card)
    return list(first.values())


def both_sides(state: PhState, card: int, flipped: bool = False) -> str:
    """A card as its own player reads it: the side in use, then the other."""
    return f"{state.side(card, flipped).text()} ‖ Other side: {state.side(card, not flipped).text()}"


def _warrior(state: PhState, card: int, viewer: int) -> str:
    owner = state.owner(card)
    return both_sides(state, card) if owner == viewer else state.side(card).text()


def seat_choices(state: PhState, seat: int) -> list[Choice]:
    if state.step == "over":
        return []
    if state.step == "pick":
        return _pick(state, seat) if state.picks[seat] is None else []
    if state.pending is not None:
        return pending_choices(state, state.pending) if seat == state.pending.seat else []
    if state.round is not None:
        if seat != state.round.seat:
            return []
        return [*actions(state, seat), Choice(key="pass", label="Pass", steps=["Pass"], action=Pass())]
    if state.step == "defenders":
        return _defenders(state, seat) if seat == state.declaring else []
    if seat != state.turn:
        return []
    if state.step == "attack":
        return [Choice(key="attack", label="Attack (the Nexus's defender is chosen at random)",
                       steps=["Attack"], action=Attack(attack=True)),
                Choice(key="no-attack", label="Do not attack: go on to the Training step",
                       steps=["Do not attack"], action=Attack(attack=False))]
    if state.step == "attackers":
        return _attackers(state)
    if state.step == "skirmishes":
        names = _names(state, state.attacking(), state.name)
        return [Choice(key=f"resolve:{c}", label=fit(f"Resolve the skirmish of {names[c]}"),
                       steps=["Resolve a skirmish", names[c]], action=Resolve(attacker=c),
                       detail=_warrior(state, c, seat)) for c in state.attacking()]
    assert state.step == "training"
    return [*actions(state, seat), *_trainings(state, seat),
            Choice(key="done", label="Done training: a last action round, then the turn passes",
                   steps=["Done training"], action=Done())]


def _pick(state: PhState, seat: int) -> list[Choice]:
    hand = _distinct(state, state.hands[seat], flipped=True)
    names = _names(state, hand, lambda c: state.side(c, flipped=True).title)
    return [Choice(key=f"pick:{c}", label=fit(f"Put {names[c]} into your barracks (this side up)"),
                   steps=["Put into the barracks", names[c]], action=Pick(card=c),
                   detail=both_sides(state, c, flipped=True)) for c in hand]


def actions(state: PhState, seat: int) -> list[Choice]:
    """Orders from hand and skills of warriors in play that can be paid for now."""
    found: list[Choice] = []
    hand = [c for c in _distinct(state, state.hands[seat], flipped=True)
            if (ability := state.side(c, flipped=True).order) is not None
            and costs.can_pay(state, seat, ability)]
    names = _names(state, hand, lambda c: state.side(c, flipped=True).title)
    for card in hand:
        found.append(Choice(key=f"order:{card}", label=fit(f"Play the order of {names[card]}"),
                            steps=["Play an order", names[card]], action=Order(card=card),
                            detail=both_sides(state, card, flipped=True)))
    fight = state.in_skirmish()
    warriors = [c for c in state.play[seat]
                if (ability := state.side(c).skill) is not None and c not in state.used
                and not state.is_locked(c) and (not fight or c in fight)
                and costs.can_pay(state, seat, ability)]
    names = _names(state, warriors, state.name)
    for card in warriors:
        found.append(Choice(key=f"skill:{card}", label=fit(f"Use the skill of {names[card]}"),
                            steps=["Use a skill", names[card]], action=Skill(card=card),
                            detail=both_sides(state, card)))
    return found


def _trainings(state: PhState, seat: int) -> list[Choice]:
    ready = [c for c in _distinct(state, [c for c in state.barracks[seat] if not state.is_locked(c)])
             if costs.can_pay(state, seat, None, training=state.side(c).cost, exclude=(c,))]
    names = _names(state, ready, state.name)
    return [Choice(key=f"train:{c}",
                   label=fit(f"Train {names[c]} (phase {state.side(c).cost} other resources)"),
                   steps=["Train a warrior", names[c]], action=Train(card=c), detail=both_sides(state, c))
            for c in ready]


def _attackers(state: PhState) -> list[Choice]:
    seat = state.turn
    free = skirmish.may_attack(state)
    names = _names(state, free, state.name)
    found = []
    for card in free:
        targets: list[tuple[int | None, str]] = [(None, "the Nexus")]
        targets += [(s, seat_ref(s)) for s in state.others(seat)]
        for at, where in targets:
            found.append(Choice(key=f"send:{card}:{'nexus' if at is None else at}",
                                label=fit(f"Send {names[card]} to attack {where}"),
                                steps=[f"Send {names[card]}", f"To attack {where}"],
                                action=Send(card=card, at=at),
                                detail=both_sides(state, card)))
    if state.skirmishes:
        found.append(Choice(key="done", label="Done declaring attackers", steps=["Done declaring attackers"],
                            action=Done()))
    return found


def _defenders(state: PhState, seat: int) -> list[Choice]:
    pairs = skirmish.oppositions(state, seat)
    mine = _names(state, list(dict.fromkeys(c for c, _ in pairs)), state.name)
    theirs = _names(state, state.attacking(), state.name)
    found = []
    for card, fight in pairs:
        where = "at the Nexus" if fight.at is None else "at you"
        found.append(Choice(
            key=f"oppose:{card}:{fight.attacker}",
            label=fit(f"{mine[card]} opposes {theirs[fight.attacker]} {where}"),
            steps=[f"Defend with {mine[card]}", f"Against {theirs[fight.attacker]}"],
            action=Oppose(card=card, attacker=fight.attacker),
            detail=f"{both_sides(state, card)} — against: {state.side(fight.attacker).text()}"))
    found.append(Choice(key="done", label="Done declaring defenders", steps=["Done declaring defenders"],
                        action=Done()))
    return found


def _source(state: PhState, pending: Pending) -> str:
    if pending.kind == "order":
        return state.side(pending.card, flipped=True).title
    return state.name(pending.card)


def pending_choices(state: PhState, pending: Pending) -> list[Choice]:
    what = _source(state, pending)
    need = costs.stage(state, pending)
    found: list[Choice] = []
    detail = both_sides(state, pending.card, flipped=pending.kind == "order")
    if need == "x":
        free = len(costs.usable(state, pending))
        for n in range(1, min(free, 6) + 1):
            plural = "s" if n > 1 else ""
            found.append(Choice(key=f"x:{n}", label=fit(f"Lock {n} resource{plural} for {what}"),
                                steps=["Choose X", f"X = {n}"], action=SetX(n=n), detail=detail))
    elif need in ("lock", "phase"):
        usable = _distinct(state, costs.usable(state, pending))
        names = _names(state, usable, state.name)
        verb = "Lock" if need == "lock" else "Phase"
        for card in usable:
            move = Lock(card=card) if need == "lock" else PhaseResource(card=card)
            found.append(Choice(key=f"{need}:{card}", label=fit(f"{verb} {names[card]} to pay for {what}"),
                                steps=[f"{verb} a resource", names[card]], action=move,
                                detail=both_sides(state, card)))
    elif need == "choose":
        options = costs.candidates(state, pending)
        names = _names(state, options, lambda c: f"{state.name(c)} of {seat_ref(state.owner(c))}")
        for card in options:
            found.append(Choice(key=f"choose:{card}", label=fit(f"Choose {names[card]} for {what}"),
                                steps=["Choose a warrior", names[card]], action=Choose(card=card),
                                detail=_warrior(state, card, pending.seat)))
    found.append(Choice(key="cancel", label=fit(f"Cancel {what} (nothing is paid yet)"), steps=["Cancel"],
                        action=Cancel(), detail=detail, idle=True))
    return found


