"""Every move in Once Upon a Time… Life, as a discriminated union on ``type``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from engines.actions import BY_TYPE, Move
from engines.once_upon_a_time_life.questions import Level


class ChoosePawn(Move):
    """Before the first roll, in turn order: the pawn a player plays (its body system's START is theirs)."""

    type: Literal["pawn"] = "pawn"
    pawn: str = Field(pattern=r"^[a-z0-9-]{1,24}$")


class Exchange(Move):
    """Before the roll: one exchange of the conversion card at the bank."""

    type: Literal["exchange"] = "exchange"
    give: Literal["globin", "leukocyte", "medicine"]


class VirusAttack(Move):
    type: Literal["virus"] = "virus"
    target: int


class Duel(Move):
    """Challenge a player with a Master card; ``level`` is the deck the questions come from."""

    type: Literal["duel"] = "duel"
    target: int
    level: Level


class Roll(Move):
    type: Literal["roll"] = "roll"


class Defend(Move):
    """On a Virus or Bacteria space: the token given up."""

    type: Literal["defend"] = "defend"
    token: Literal["globin", "leukocyte", "medicine"]


class PickQuestion(Move):
    type: Literal["pick"] = "pick"
    level: Level


class Answer(Move):
    """``choice`` indexes the answers in the order shown; None: no answer (counts as wrong)."""

    type: Literal["answer"] = "answer"
    choice: int | None = Field(default=None, ge=0, le=3)


class VaBanque(Move):
    """After a right answer on a Question space: another question (``level``), or stop (None)."""

    type: Literal["vabanque"] = "vabanque"
    level: Level | None = None


class Respond(Move):
    """The target of a duel or a Virus attack: show a Master, or not."""

    type: Literal["respond"] = "respond"
    master: bool


class Spoils(Move):
    """The duel's winner takes 4 Globin or 1 Hemo from the loser."""

    type: Literal["spoils"] = "spoils"
    take: Literal["globin", "hemo"]


LifeAction = Annotated[
    ChoosePawn
    | Exchange
    | VirusAttack
    | Duel
    | Roll
    | Defend
    | PickQuestion
    | Answer
    | VaBanque
    | Respond
    | Spoils,
    BY_TYPE,
]
