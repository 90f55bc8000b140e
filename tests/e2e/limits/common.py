"""What every rule of ``tests/e2e/limits`` shares: length checks and the request context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MIB = 1024 * 1024


@dataclass(frozen=True)
class Context:
    """What a payload alone does not tell: the files uploaded with it, the attachments an edited
    message already has, and the interaction a callback answers."""

    files: tuple[tuple[str, int], ...] = ()  # (filename, size in bytes) sent as files[n]
    kept: tuple[str, ...] = ()  # filenames of attachments the edited message keeps
    interaction_type: int | None = None  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    on_message: bool = False  # the interaction came from a message's component (it can be updated)


def length(where: str, value: Any, maximum: int, minimum: int = 0) -> None:
    """``value`` is absent (allowed when ``minimum`` is 0) or a string of ``minimum``-``maximum`` chars."""
    if value is None:
        assert minimum == 0, f"{where}: missing (must be {minimum}-{maximum} chars)"
        return
    n = len(str(value))
    assert n <= maximum, f"{where}: {n} chars > {maximum}"
    assert n >= minimum, f"{where}: {n} chars < {minimum}"


def count(where: str, items: Any, maximum: int, what: str) -> list[Any]:
    listed = list(items or [])
    assert len(listed) <= maximum, f"{where}: {len(listed)} {what} > {maximum}"
    return listed


NO_CONTEXT = Context()
