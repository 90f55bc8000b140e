"""Every move in Phase, as a discriminated union on ``type``. Cards are named
by their ids; ``at`` names a player (``None``: the Nexus)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Pick(_Move):
    """Setup: the card from the opening hand that goes into the barracks (secret)."""

    type: Literal["pick"] = "pick"
    card: int


class Attack(_Move):
    """Attack step: declare an attack (or not: go on to the Training step)."""

    type: Literal["attack"] = "attack"
    attack: bool


class Send(_Move):
    type: Literal["send"] = "send"
    card: int
    at: int | None = None


class Oppose(_Move):
    type: Literal["oppose"] = "oppose"
    card: int
    attacker: int


class Done(_Move):
    """Finish declaring attackers or defenders, or finish training."""

    type: Literal["done"] = "done"


class Resolve(_Move):
    """Choose the next skirmish to resolve (by its attacker)."""

    type: Literal["resolve"] = "resolve"
    attacker: int


class Order(_Move):
    type: Literal["order"] = "order"
    card: int


class Skill(_Move):
    type: Literal["skill"] = "skill"
    card: int


class Train(_Move):
    type: Literal["train"] = "train"
    card: int


class SetX(_Move):
    type: Literal["x"] = "x"
    n: int


class Lock(_Move):
    """Pay a lock cost with this resource."""

    type: Literal["lock"] = "lock"
    card: int


class PhaseResource(_Move):
    """Pay a phase cost with this resource."""

    type: Literal["phase"] = "phase"
    card: int


class Choose(_Move):
    """Choose a warrior for the action being set up."""

    type: Literal["choose"] = "choose"
    card: int


class Cancel(_Move):
    type: Literal["cancel"] = "cancel"


class Pass(_Move):
    type: Literal["pass"] = "pass"


PhAction = Annotated[
    Pick | Attack | Send | Oppose | Done | Resolve | Order | Skill | Train | SetX | Lock | PhaseResource
    | Choose | Cancel | Pass,
    Field(discriminator="type"),
]
