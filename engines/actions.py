"""The one way a game declares its moves, and the one way a move is read.

Each game writes its moves in its own ``actions.py`` as subclasses of
:class:`Move`, each with its own literal ``type`` (the move's name in the
game's words), and joins them into one union keyed by that field::

    class Pick(Move):
        type: Literal["pick"] = "pick"
        card: int

    GameAction = Annotated[Pick | Pass, BY_TYPE]

A move is a frozen value with no extra fields, so a move from a menu, from a
stored log and from a replay compare equal; its JSON is the log's, and
:func:`parse_move` turns that JSON (or any outside dict) back into the move, or
refuses it with one sentence.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engines.contract import IllegalAction
from engines.refusals import first_error

# The field every game's moves are told apart by.
BY_TYPE: Any = Field(discriminator="type")

A = TypeVar("A")


class Move(BaseModel):
    """Base of every game's moves."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def parse_move(moves: TypeAdapter[A], data: Any) -> A:
    """The move ``data`` stands for, or :class:`IllegalAction` saying what is wrong."""
    try:
        return moves.validate_python(data)
    except ValidationError as error:
        raise IllegalAction(f"That is not a move this game knows ({first_error(error)}).") from None
