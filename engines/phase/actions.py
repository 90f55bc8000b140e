"""Every move in Phase, as a discriminated union on ``type``. Cards are named
by their ids; ``at`` names a player (``None``: the Nexus)."""

from __future__ import annotations

from typing import Annotated, Literal

from engines.actions import BY_TYPE, Move


class Pick(Move):
    """Setup: the card from the opening hand that goes into the barracks (secret)."""

    type: Literal["pick"] = "pick"
    card: int


class Attack(Move):
    """Attack step: declare an attack (or not: go on to the Training step)."""

    type: Literal["attack"] = "attack"
    attack: bool


class Send(Move):
    type: Literal["send"] = "send"
    card: int
    at: int | None = None


class Oppose(Move):
    type: Literal["oppose"] = "oppose"
    card: int
    attacker: int


class Done(Move):
    """Finish declaring attackers or defenders, or finish training."""

    type: Literal["done"] = "done"


class Resolve(Move):
    """Choose the next skirmish to resolve (by its attacker)."""

    type: Literal["resolve"] = "resolve"
    attacker: int


class Order(Move):
    type: Literal["order"] = "order"
    card: int


class Skill(Move):
    type: Literal["skill"] = "skill"
    card: int


class Train(Move):
    type: Literal["train"] = "train"
    card: int


class SetX(Move):
    type: Literal["x"] = "x"
    n: int


class Lock(Move):
    """Pay a lock cost with this resource."""

    type: Literal["lock"] = "lock"
    card: int


class PhaseResource(Move):
    """Pay a phase cost with this resource."""

    type: Literal["phase"] = "phase"
    card: int


class Choose(Move):
    """Choose a warrior for the action being set up."""

    type: Literal["choose"] = "choose"
    card: int


class Cancel(Move):
    type: Literal["cancel"] = "cancel"


class Pass(Move):
    type: Literal["pass"] = "pass"


PhAction = Annotated[
    Pick
    | Attack
    | Send
    | Oppose
    | Done
    | Resolve
    | Order
    | Skill
    | Train
    | SetX
    | Lock
    | PhaseResource
    | Choose
    | Cancel
    | Pass,
    BY_TYPE,
]
