"""TableService: a table's whole life — lobby, seats, start, act, timeouts,
abandon — platform-neutral (no discord import), used by the Discord layer and
the terminal table alike.

Every change follows one path (:mod:`bot.service.changes`): load the table, check who
may do what, let the engine adjudicate, then save with compare-and-set on
``version`` together with the log entries. A lost race is simply re-run on the
fresh table, where the same checks decide again, so no action is ever applied
twice.

The service is put together from one part per concern, each in its own module:
reading tables (:mod:`bot.service.reading`), finding the one a command means
(:mod:`bot.service.finding`), the lobby and the seats (:mod:`bot.service.lobby`), moves
(:mod:`bot.service.playing`) and the deadline sweeper (:mod:`bot.service.sweeping`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from bot.service.changes import Outcome, _Play
from bot.service.errors import OutcomeUnknown, StorageUnavailable
from bot.service.finding import Finding
from bot.service.lobby import Lobby, Player
from bot.service.playing import Playing
from bot.service.sweeping import RETRY_TIMEOUT_AFTER, SWEEP_BATCH, Sweeping
from storage.store import STORAGE_FAULTS, SaveUnknown

__all__ = ["RETRY_TIMEOUT_AFTER", "SWEEP_BATCH", "Outcome", "Player", "TableService", "_Play"]

_P = ParamSpec("_P")
_R = TypeVar("_R")
# Called from outside the service too (vacations, substitutes, undo, pausing).
_ENTRY_POINTS = ("_change",)


def _own_errors(method: Callable[_P, Coroutine[Any, Any, _R]]) -> Callable[_P, Coroutine[Any, Any, _R]]:
    """``method``, raising the service's errors only: storage that did not
    answer (its save settled first, see ``storage.saving``) is
    :class:`StorageUnavailable`, a save still unsettled :class:`OutcomeUnknown`."""

    @functools.wraps(method)
    async def own(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return await method(*args, **kwargs)
        except SaveUnknown as unknown:
            raise OutcomeUnknown() from unknown
        except STORAGE_FAULTS as fault:
            raise StorageUnavailable() from fault

    return own


def _raising_own_errors(cls: type[_R]) -> type[_R]:
    """Wrap every coroutine a caller of the service may call (see :func:`_own_errors`)."""
    for name in dir(cls):
        if name.startswith("_") and name not in _ENTRY_POINTS:
            continue
        found = inspect.getattr_static(cls, name)
        if inspect.iscoroutinefunction(found):
            setattr(cls, name, _own_errors(found))
    return cls


@_raising_own_errors
class TableService(Finding, Lobby, Playing, Sweeping):
    """Every table operation, the one object the Discord layer, the terminal
    table and the tournaments hold. It raises only its own errors
    (:class:`bot.service.errors.ServiceError`): a refusal, or storage that did not answer."""
