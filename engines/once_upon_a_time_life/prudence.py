"""The quick moves of a bot's simulated turns: change Globin into Hemo as soon
as four are saved, keep a Leukocyte and a Medicine for the next Virus and
Bacteria, pay them rather than Globin, use Virus cards on the richest rival,
choose questions and va banque by the odds of answering right, and answer
with the table's odds for a bot (the quick game cannot read the question)."""

from __future__ import annotations

import random

from engines import sampling
from engines.core import Choice, Seat
from engines.once_upon_a_time_life import actions
from engines.once_upon_a_time_life.moves import REWARD
from engines.once_upon_a_time_life.questions import Level
from engines.once_upon_a_time_life.state import LifeState
from engines.once_upon_a_time_life.tokens import WORTH

# Defence tokens kept back from the bank's exchanges.
RESERVE = 2


def odds(state: LifeState, level: Level) -> float:
    """How likely a question of ``level`` is answered right (the table's bot odds)."""
    return state.options.bot_easy if level == "easy" else state.options.bot_hard


def quick_move(state: LifeState, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
    right = state.question.correct if state.stage == "answer" and state.question is not None else None
    if right is not None and state.question is not None:
        knows = rng.random() < odds(state, state.question.level)
        return sampling.best(choices, lambda c: _answer_worth(c.action, right, knows), rng)
    return sampling.best(choices, lambda c: _worth(state, seat, c.action), rng)


def _answer_worth(action: object, right: int, knows: bool) -> float:
    if not isinstance(action, actions.Answer) or action.choice is None:
        return -1.0  # no answer counts as wrong
    return 1.0 if (action.choice == right) == knows else 0.0


def _worth(state: LifeState, seat: Seat, action: object) -> float:
    purse = state.purses[seat]
    if isinstance(action, actions.ChoosePawn):
        # Any system does; one nobody plays yet keeps the players spread round the body.
        taken = {pawn.system for s in range(state.players) if (pawn := state.pawn(s)) is not None}
        chosen = state.board.pawn_named(action.pawn)
        return 1.0 if chosen is not None and chosen.system not in taken else 0.0
    if isinstance(action, actions.Exchange):
        if action.give == "globin":
            return 5.0  # Hemo is what wins
        return 2.0 if purse.of(action.give) > RESERVE else -1.0
    if isinstance(action, actions.VirusAttack):
        return 1.0 + state.purses[action.target].worth() / 20
    if isinstance(action, actions.Duel):
        # A coin toss at best: only against a rival ahead, where the spoils hurt most.
        ahead = state.purses[action.target].worth() - purse.worth()
        return 0.5 if ahead > 0 and state.purses[action.target].hemo else -0.5
    if isinstance(action, actions.Defend):
        return -WORTH[action.token]
    if isinstance(action, actions.PickQuestion):
        return odds(state, action.level) * REWARD[action.level]
    if isinstance(action, actions.VaBanque):
        if action.level is None:
            return 0.0
        p = odds(state, action.level)
        return p * REWARD[action.level] - (1 - p) * state.earned
    if isinstance(action, actions.Respond):
        return _respond_worth(state, seat, action)
    if isinstance(action, actions.Spoils):
        return 1.0 if action.take == "hemo" else 0.0
    return 0.0  # roll the die


def _respond_worth(state: LifeState, seat: Seat, action: actions.Respond) -> float:
    if not action.master:
        return 0.0
    fight = state.challenge
    if fight is None or fight.kind == "virus":
        return 1.0  # the Master card saves 3 Globin
    # A duel risks what one has: avoid it when ahead of the challenger.
    return 0.5 if state.purses[seat].worth() >= state.purses[fight.by].worth() else -0.5
