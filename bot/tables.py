"""TableService: a table's whole life — lobby, seats, start, act, timeouts,
abandon — platform-neutral (no discord import), used by the Discord layer and
the terminal table alike.

Every change follows one path (:mod:`bot.changes`): load the table, check who
may do what, let the engine adjudicate, then save with compare-and-set on
``version`` together with the log entries. A lost race is simply re-run on the
fresh table, where the same checks decide again, so no action is ever applied
twice.

The service is put together from one part per concern, each in its own module:
reading tables (:mod:`bot.reading`), finding the one a command means
(:mod:`bot.finding`), the lobby and the seats (:mod:`bot.lobby`), moves
(:mod:`bot.playing`) and the deadline sweeper (:mod:`bot.sweeping`).
"""

from __future__ import annotations

from bot.changes import Outcome, _Play
from bot.finding import Finding
from bot.lobby import Lobby, Player
from bot.playing import Playing
from bot.sweeping import RETRY_TIMEOUT_AFTER, SWEEP_BATCH, Sweeping

__all__ = ["RETRY_TIMEOUT_AFTER", "SWEEP_BATCH", "Outcome", "Player", "TableService", "_Play"]


class TableService(Finding, Lobby, Playing, Sweeping):
    """Every table operation, the one object the Discord layer, the terminal
    table and the tournaments hold."""
