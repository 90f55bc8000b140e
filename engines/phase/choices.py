"""The legal moves of a seat, as menu choices. Labels name the whole move;
``steps`` group them (what to do, then which card); ``detail`` is the text of
the card the choice names, as the choosing seat may read it.

A bot's search asks for the moves of every step of every simulated game and
reads only their keys, actions and idle flags, while the words (card names
told apart, both sides' texts) cost most of the work. So every builder takes a
:class:`Menu`, which writes the words only for people: one path lists the
moves for both, and they cannot drift apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import Choice, seat_ref
from engines.phase import actions, costs, skirmish
from engines.phase.state import Pending, PhState

LABEL_MAX = 80

# A choice's words: its label, its steps and its detail.
Words = Callable[[], tuple[str, list[str], str]]


class Menu:
    """Makes a seat's choices: with their words (``words=True``, for people),
    or bare for a bot's search, the words then never computed."""

    __slots__ = ("state", "words")

    def __init__(self, state: PhState, words: bool) -> None:
        self.state = state
        self.words = words

    def names(self, cards: list[int], title: Callable[[int], str]) -> dict[int, str]:
        """:func:`_names` where words are written (nothing reads them otherwise)."""
        return _names(self.state, cards, title) if self.words else {}

    def __call__(self, key: str, action: Any, words: Words, idle: bool = False) -> Choice:
        if not self.words:
            return Choice(key=key, label="", steps=[""], action=action, idle=idle)
        label, steps, detail = words()
        return Choice(key=key, label=label, steps=steps, action=action, detail=detail, idle=idle)


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


def seat_choices(state: PhState, seat: int, words: bool = True) -> list[Choice]:
    """The legal moves of ``seat``; ``words=False``: without their words (see :class:`Menu`)."""
    make = Menu(state, words)
    if state.step == "over":
        return []
    if state.step == "pick":
        return _pick(make, seat) if state.picks[seat] is None else []
    if state.pending is not None:
        return pending_choices(make, state.pending) if seat == state.pending.seat else []
    if state.round is not None:
        if seat != state.round.seat:
            return []
        found = _actions(make, seat)
        why = "" if found else " (no action you can take and pay for now)"  # a lone Pass says why
        return [*found, make("pass", actions.Pass(), lambda: (f"Pass{why}", ["Pass"], ""))]
    if state.step == "defenders":
        return _defenders(make, seat) if seat == state.declaring else []
    if seat != state.turn:
        return []
    if state.step == "attack":
        return [
            make(
                "attack",
                actions.Attack(attack=True),
                lambda: ("Attack (the Nexus's defender is chosen at random)", ["Attack"], ""),
            ),
            make(
                "no-attack",
                actions.Attack(attack=False),
                lambda: ("Do not attack: go on to the Training step", ["Do not attack"], ""),
            ),
        ]
    if state.step == "attackers":
        return _attackers(make)
    if state.step == "skirmishes":
        fighting = state.attacking()
        names = make.names(fighting, state.name)
        return [
            make(
                f"resolve:{c}",
                actions.Resolve(attacker=c),
                lambda: (
                    fit(f"Resolve the skirmish of {names[c]}"),
                    ["Resolve a skirmish", names[c]],
                    _warrior(state, c, seat),
                ),
            )
            for c in fighting
        ]
    assert state.step == "training"
    return [
        *_actions(make, seat),
        *_trainings(make, seat),
        make(
            "done",
            actions.Done(),
            lambda: ("Done training: a last action round, then the turn passes", ["Done training"], ""),
        ),
    ]


# The lambdas below read their loop's variables: a Menu calls each at once or
# never, so none outlives the pass of the loop it belongs to.


def _pick(make: Menu, seat: int) -> list[Choice]:
    state = make.state
    hand = _distinct(state, state.hands[seat], flipped=True)
    names = make.names(hand, lambda c: state.side(c, flipped=True).title)
    return [
        make(
            f"pick:{c}",
            actions.Pick(card=c),
            lambda: (
                fit(f"Put {names[c]} into your barracks (this side up)"),
                ["Put into the barracks", names[c]],
                both_sides(state, c, flipped=True),
            ),
        )
        for c in hand
    ]


def _actions(make: Menu, seat: int) -> list[Choice]:
    """Orders from hand and skills of warriors in play that can be paid for now."""
    state = make.state
    found: list[Choice] = []
    hand = [
        c
        for c in _distinct(state, state.hands[seat], flipped=True)
        if (ability := state.side(c, flipped=True).order) is not None and costs.can_pay(state, seat, ability)
    ]
    names = make.names(hand, lambda c: state.side(c, flipped=True).title)
    for card in hand:
        found.append(
            make(
                f"order:{card}",
                actions.Order(card=card),
                lambda: (
                    fit(f"Play the order of {names[card]}"),
                    ["Play an order", names[card]],
                    both_sides(state, card, flipped=True),
                ),
            )
        )
    fight = state.in_skirmish()
    # "Any number of actions", and a resource "may be phased multiple times per
    # turn": a skill may be used again and again. A use after the first is idle,
    # so a bot's search never spends a round repeating one (RULES.md, decision 8).
    warriors = [
        c
        for c in state.play[seat]
        if (ability := state.side(c).skill) is not None
        and not state.is_locked(c)
        and (not fight or c in fight)
        and costs.can_pay(state, seat, ability)
    ]
    names = make.names(warriors, state.name)
    for card in warriors:
        found.append(
            make(
                f"skill:{card}",
                actions.Skill(card=card),
                lambda: (
                    fit(f"Use the skill of {names[card]}"),
                    ["Use a skill", names[card]],
                    both_sides(state, card),
                ),
                idle=card in state.used,
            )
        )
    return found


def _trainings(make: Menu, seat: int) -> list[Choice]:
    state = make.state
    ready = [
        c
        for c in _distinct(state, [c for c in state.barracks[seat] if not state.is_locked(c)])
        if costs.can_pay(state, seat, None, training=state.side(c).cost, exclude=(c,))
    ]
    names = make.names(ready, state.name)
    return [
        make(
            f"train:{c}",
            actions.Train(card=c),
            lambda: (
                fit(f"Train {names[c]} (phase {state.side(c).cost} other resources)"),
                ["Train a warrior", names[c]],
                both_sides(state, c),
            ),
        )
        for c in ready
    ]


def _attackers(make: Menu) -> list[Choice]:
    state = make.state
    seat = state.turn
    free = skirmish.may_attack(state)
    names = make.names(free, state.name)
    found = []
    # One attack, one target: "sends one or more of their warriors to either
    # attack The Nexus or another player"; the first warrior sent names it.
    targets: list[tuple[int | None, str]] = [(None, "the Nexus")]
    targets += [(s, seat_ref(s)) for s in state.others(seat)]
    if state.skirmishes:
        targets = [t for t in targets if t[0] == state.skirmishes[0].at]
    for card in free:
        for at, where in targets:
            found.append(
                make(
                    f"send:{card}:{'nexus' if at is None else at}",
                    actions.Send(card=card, at=at),
                    lambda: (
                        fit(f"Send {names[card]} to attack {where}"),
                        [f"Send {names[card]}", f"To attack {where}"],
                        both_sides(state, card),
                    ),
                )
            )
    if state.skirmishes:
        found.append(
            make(
                "done", actions.Done(), lambda: ("Done declaring attackers", ["Done declaring attackers"], "")
            )
        )
    return found


def _defenders(make: Menu, seat: int) -> list[Choice]:
    state = make.state
    pairs = skirmish.oppositions(state, seat)
    mine = make.names(list(dict.fromkeys(c for c, _ in pairs)), state.name)
    theirs = make.names(state.attacking(), state.name)
    found = []
    for card, fight in pairs:
        where = "at the Nexus" if fight.at is None else "at you"
        found.append(
            make(
                f"oppose:{card}:{fight.attacker}",
                actions.Oppose(card=card, attacker=fight.attacker),
                lambda: (
                    fit(f"{mine[card]} opposes {theirs[fight.attacker]} {where}"),
                    [f"Defend with {mine[card]}", f"Against {theirs[fight.attacker]}"],
                    f"{both_sides(state, card)} — against: {state.side(fight.attacker).text()}",
                ),
            )
        )
    found.append(
        make("done", actions.Done(), lambda: ("Done declaring defenders", ["Done declaring defenders"], ""))
    )
    return found


def _source(state: PhState, pending: Pending) -> str:
    if pending.kind == "order":
        return state.side(pending.card, flipped=True).title
    return state.name(pending.card)


def pending_choices(make: Menu, pending: Pending) -> list[Choice]:
    state = make.state
    what = _source(state, pending) if make.words else ""
    detail = both_sides(state, pending.card, flipped=pending.kind == "order") if make.words else ""
    need = costs.stage(state, pending)
    found: list[Choice] = []

    if need == "x":
        free = len(costs.usable(state, pending))
        for n in range(1, min(free, 6) + 1):
            plural = "s" if n > 1 else ""
            found.append(
                make(
                    f"x:{n}",
                    actions.SetX(n=n),
                    lambda: (fit(f"Lock {n} resource{plural} for {what}"), ["Choose X", f"X = {n}"], detail),
                )
            )
    elif need in ("lock", "phase"):
        usable = _distinct(state, costs.usable(state, pending))
        names = make.names(usable, state.name)
        verb = "Lock" if need == "lock" else "Phase"
        for card in usable:
            move = actions.Lock(card=card) if need == "lock" else actions.PhaseResource(card=card)
            found.append(
                make(
                    f"{need}:{card}",
                    move,
                    lambda: (
                        fit(f"{verb} {names[card]} to pay for {what}"),
                        [f"{verb} a resource", names[card]],
                        both_sides(state, card),
                    ),
                )
            )
    elif need == "choose":
        options = costs.candidates(state, pending)
        names = make.names(options, lambda c: f"{state.name(c)} of {seat_ref(state.owner(c))}")
        for card in options:
            found.append(
                make(
                    f"choose:{card}",
                    actions.Choose(card=card),
                    lambda: (
                        fit(f"Choose {names[card]} for {what}"),
                        ["Choose a warrior", names[card]],
                        _warrior(state, card, pending.seat),
                    ),
                )
            )
    cancel = f"Cancel {what} (nothing is paid until the last choice)"
    found.append(make("cancel", actions.Cancel(), lambda: (fit(cancel), ["Cancel"], detail), idle=True))
    return found
