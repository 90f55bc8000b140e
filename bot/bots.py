"""The bots' moves at a table: the search of ``engines.ai`` at the seat's level.

Called by the table service inside a change, which runs in a worker thread (see
``TableService._change``), so a long search never holds up the event loop. The
seed comes from the table's seed and version, so a change re-run after a lost
compare-and-set race searches the same way."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from engines.ai import choose, level_of
from engines.core import Choice, Engine, Seat


def bot_move(engine: Engine[Any, Any], state: BaseModel, seat: Seat, level: str, seed: str) -> Choice:
    # A step the game plays for its bots itself (e.g. a quiz answer right with
    # the table's odds) comes first; everything else is searched.
    chosen = engine.bot_policy(state, seat, level, random.Random(seed))
    if chosen is not None:
        return chosen
    return choose(engine, state, seat, level_of(level), seed)
