"""Every move in Spheres of Life, as a discriminated union on ``type``.

Own cards and table cards are named by card id. Another player's hidden hand is
named only where its owner's view holds it (Blessed Cherry's positions); a
Steal takes a random card unless the thief has seen the card it names.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.spheres_of_life.state import Shape


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChooseHero(_Move):
    type: Literal["choose_hero"] = "choose_hero"
    hero: str


class Throw(_Move):
    type: Literal["throw"] = "throw"
    shape: Shape


class Pick(_Move):
    type: Literal["pick"] = "pick"
    card: int


class Discard(_Move):
    type: Literal["discard"] = "discard"
    card: int


class Done(_Move):
    type: Literal["done"] = "done"


class Bank(_Move):
    type: Literal["bank"] = "bank"
    animal: str


class Steal(_Move):
    """Take a random card from ``target`` — or ``card``, one the thief has seen there."""

    type: Literal["steal"] = "steal"
    target: int
    card: int | None = None


class Gift(_Move):
    type: Literal["gift"] = "gift"
    card: int
    target: int


class Offer(_Move):
    type: Literal["offer"] = "offer"
    card: int


class Want(_Move):
    type: Literal["want"] = "want"
    wanted: str


class Cancel(_Move):
    type: Literal["cancel"] = "cancel"


class Accept(_Move):
    type: Literal["accept"] = "accept"


class Decline(_Move):
    type: Literal["decline"] = "decline"


class Play(_Move):
    type: Literal["play"] = "play"
    card: int
    target: int | None = None


class Block(_Move):
    type: Literal["block"] = "block"
    card: int


class Pass(_Move):
    type: Literal["pass"] = "pass"


class Reorder(_Move):
    """Swap the cards at ``position`` and ``position + 1`` of one's own hand."""

    type: Literal["reorder"] = "reorder"
    position: int


class Peek(_Move):
    type: Literal["peek"] = "peek"
    position: int


class Place(_Move):
    type: Literal["place"] = "place"
    card: int


class Take(_Move):
    type: Literal["take"] = "take"
    card: int


SolAction = Annotated[
    ChooseHero | Throw | Pick | Discard | Done | Bank | Steal | Gift | Offer | Want | Cancel | Accept
    | Decline | Play | Block | Pass | Reorder | Peek | Place | Take,
    Field(discriminator="type"),
]
