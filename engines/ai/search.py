"""Information-set Monte Carlo tree search (single observer, as in Cowling,
Powley & Whitehouse 2012 and OpenSpiel's ``ISMCTSBot``).

Each iteration samples one full state the bot's seat cannot tell from the true
one (:meth:`Engine.determinize`), walks the shared tree of moves through the
moves legal in that sample (UCB with availability counts, since a move is only
available in some samples), adds one node, plays a few quick moves
(:meth:`Engine.rollout_choice`) and scores the result (:meth:`Engine.evaluate`).
The move tried most often at the root is played. The search never touches the
true state beyond handing it to ``determinize``.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from pydantic import BaseModel

from engines.ai.levels import Level
from engines.core import Choice, Engine, IllegalAction, Seat

Key = tuple[Seat, str]

# A simulated game after the tree ends after this many moves of any kind per
# step of the level's rollout depth, whatever the game lets go uncounted.
ROLLOUT_MOVES_PER_STEP = 6


class Node:
    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: Seat) -> None:
        self.seat = seat  # who made the move leading here
        self.children: dict[Key, Node] = {}
        self.total = 0.0
        self.visits = 0
        self.available = 0


def choose(engine: Engine[Any, Any], state: BaseModel, seat: Seat, level: Level, seed: int | str) -> Choice:
    """The move ``seat`` makes now (it must have legal actions)."""
    # The budget covers the whole decision, the first sample and the check of
    # every legal move included.
    deadline = time.perf_counter() + level.budget_ms / 1000
    rng = random.Random(seed)
    # The root's choices are what the caller gets back, words and all; the
    # simulated games read only keys and actions (``Engine.moves``).
    choices = advancing(playable(engine, state, seat, engine.legal_actions(state, seat)))
    if len(choices) == 1:
        return choices[0]
    picked = _search(engine, state, seat, choices, level, rng, deadline)
    # A game that cannot sample what this seat does not see is played at
    # random: searching the true state would cheat.
    return picked if picked is not None else rng.choice(choices)


class _LetGo(Choice):
    """The root move "make no optional play": the game goes on without one.
    Its empty key, which no game's key can be, is let through here alone."""

    def __post_init__(self) -> None:
        pass


LET_GO: Choice = _LetGo(key="", label="Let the game go on", steps=["Let the game go on"], action=None)


def consider(
    engine: Engine[Any, Any], state: BaseModel, seat: Seat, level: Level, seed: int | str
) -> Choice | None:
    """The optional play (``anytime`` prompt) ``seat`` makes now, or ``None``:
    the search weighs letting the game go on against each play, and a play is
    made only when it scores better on average than letting go. A game that
    cannot be sampled makes none: only a search could tell a play worth it."""
    deadline = time.perf_counter() + level.budget_ms / 1000
    rng = random.Random(seed)
    plays = [c for c in playable(engine, state, seat, engine.legal_actions(state, seat)) if not c.idle]
    if not plays:
        return None
    root = Node(seat)
    picked = _search(engine, state, seat, [LET_GO, *plays], level, rng, deadline, root)
    if picked is None or picked is LET_GO:
        return None
    stay = root.children.get((seat, LET_GO.key))
    play = root.children[(seat, picked.key)]
    if stay is not None and stay.visits and play.total / play.visits <= stay.total / stay.visits:
        return None
    return picked


def _search(
    engine: Engine[Any, Any],
    state: BaseModel,
    seat: Seat,
    choices: list[Choice],
    level: Level,
    rng: random.Random,
    deadline: float,
    root: Node | None = None,
) -> Choice | None:
    """The root choice tried most often, or ``None`` when the game cannot be
    sampled (searching the true state would cheat) or nothing was tried."""
    world = engine.determinize(state, seat, rng)
    if world is None:
        return None
    by_key = {c.key: c for c in choices}
    root = root if root is not None else Node(seat)
    for iteration in range(level.iterations):
        if iteration:
            world = engine.determinize(state, seat, rng)
            assert world is not None
        _iterate(engine, world, (seat, choices), root, level, rng, deadline)
        if time.perf_counter() > deadline:
            break
    best = max(
        (k for k in root.children if k[1] in by_key),
        key=lambda k: (root.children[k].visits, root.children[k].total),
        default=None,
    )
    return by_key[best[1]] if best is not None else None


def optional_seats(engine: Engine[Any, Any], state: BaseModel) -> list[Seat]:
    """The seats with an optional play (an ``anytime`` prompt) and no prompt the
    game waits on. Prompts are public, so this says nothing of what they hold."""
    prompts = engine.prompts(state)
    awaited = {p.seat for p in prompts if p.awaited}
    return sorted({p.seat for p in prompts if not p.awaited and p.seat not in awaited})


def advancing(choices: list[Choice]) -> list[Choice]:
    """The choices that move the game on: an idle one only when nothing else is left."""
    return [c for c in choices if not c.idle] or choices


def playable(engine: Engine[Any, Any], state: BaseModel, seat: Seat, choices: list[Choice]) -> list[Choice]:
    """The choices the game's own check accepts (a few games list a move the
    check then refuses in the moment, such as ending a phase too early)."""
    kept = []
    for choice in choices:
        try:
            engine.validate(state, seat, choice.action)
        except IllegalAction:
            continue
        kept.append(choice)
    return kept or choices


def _iterate(
    engine: Engine[Any, Any],
    world: BaseModel,
    first: tuple[Seat, list[Choice]],
    root: Node,
    level: Level,
    rng: random.Random,
    deadline: float,
) -> None:
    # ``first``: the searching seat and its choices, the same in every sample.
    path = [root]
    node = root
    expanded = False
    # Selection and expansion: down the tree through moves legal in this sample.
    while not expanded and engine.result(world) is None:
        if node is root:
            mover, options = first
        else:
            mover, options = _mover(engine, world, rng)
        if not options:
            break
        legal = {(mover, c.key): c for c in options}
        for key in legal:
            if key in node.children:
                node.children[key].available += 1
        untried = [k for k in legal if k not in node.children]
        if untried:
            key = rng.choice(untried)
            child = Node(mover)
            child.available = 1
            node.children[key] = child
            expanded = True
        else:
            key = max(legal, key=lambda k: _ucb(node.children[k], level.exploration))
            child = node.children[key]
        if not _play(engine, world, mover, legal[key]):
            break
        node = child
        path.append(node)
    # A short simulated game from here (cut short when the time is up), then
    # the game's own score. Its length is counted in the moves the game says
    # count (not a pass in an action round, say), up to a bound on all moves.
    counted = 0
    for _ in range(level.rollout_depth * ROLLOUT_MOVES_PER_STEP):
        if counted >= level.rollout_depth or engine.result(world) is not None:
            break
        if time.perf_counter() > deadline:
            break
        mover, options = _mover(engine, world, rng)
        if not options:
            break
        choice = engine.rollout_choice(world, mover, options, rng)
        if not _play(engine, world, mover, choice):
            break
        counted += engine.counts_in_rollout(choice)
    scores = engine.evaluate(world)
    for visited in path:
        visited.visits += 1
        visited.total += scores.get(visited.seat, 0.0)


def _ucb(node: Node, exploration: float) -> float:
    if node.visits == 0:
        return math.inf
    return node.total / node.visits + exploration * math.sqrt(math.log(max(node.available, 1)) / node.visits)


def _mover(engine: Engine[Any, Any], world: BaseModel, rng: random.Random) -> tuple[Seat, list[Choice]]:
    """Who moves next in a simulated game, and their choices: one of the seats
    the game waits for, at random (response windows in any order), else a seat
    with an optional play; no choices when nobody can move."""
    prompts = engine.prompts(world)
    for wanted in (True, False):
        seats = sorted({p.seat for p in prompts if p.awaited == wanted})
        rng.shuffle(seats)
        for seat in seats:
            choices = engine.moves(world, seat)
            if choices:
                return seat, advancing(choices)
    return 0, []


def _play(engine: Engine[Any, Any], world: BaseModel, seat: Seat, choice: Choice) -> bool:
    """Carry out a move on the sample (a private copy); False if the game refuses it."""
    if choice is LET_GO:
        return True
    try:
        engine.validate(world, seat, choice.action)
        engine.resolve(world, seat, choice.action)
    except IllegalAction:
        return False
    return True
