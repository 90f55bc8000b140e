"""The bots' moves at a table: the search of ``engines.ai`` at the seat's level.

Called by the table service inside a change, which runs in a worker thread (see
``TableService._change``), so a long search never holds up the event loop. The
seed comes from the table's seed and version, so a change re-run after a lost
compare-and-set race searches the same way."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from engines.ai import choose, consider, level_of
from engines.core import Choice, Engine, Seat


def bot_move(engine: Engine[Any, Any], state: BaseModel, seat: Seat, level: str, seed: str) -> Choice:
    # A step the game plays for its bots itself (e.g. a quiz answer right with
    # the table's odds) comes first; everything else is searched.
    chosen = engine.bot_policy(state, seat, level, random.Random(seed))
    if chosen is not None:
        return chosen
    return choose(engine, state, seat, level_of(level), seed)


def bot_optional(
    engine: Engine[Any, Any], state: BaseModel, seat: Seat, level: str, seed: str
) -> Choice | None:
    """The optional play a bot makes now outside its turn, or ``None``."""
    return consider(engine, state, seat, level_of(level), seed)


def pace(level: str, started: float, sleep: Callable[[float], None]) -> None:
    """Let a bot's decision last its level's whole budget from ``started``.

    How long a search takes depends on what the bot holds (a bot with no
    Apple has only "pass" and would answer at once; one with an Ability to
    weigh would think), and people see it in how soon the table answers them.
    Padded to the budget, every decision of a level takes the same time, so the
    time tells only what is public: how many decisions the bots made."""
    left = level_of(level).budget_ms / 1000 - (time.perf_counter() - started)
    if math.isfinite(left) and left > 0:
        sleep(left)
