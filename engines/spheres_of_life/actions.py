"""Every move in Spheres of Life, as a discriminated union on ``type``.

Own cards and table cards are named by card id. Another player's hidden hand is
named only where its owner's view holds it (Blessed Cherry's positions); a
Steal takes a random card unless the thief has seen the card it names.
"""

from __future__ import annotations

from typing import Annotated, Literal

from engines.actions import BY_TYPE, Move
from engines.spheres_of_life.state import Shape


class ChooseHero(Move):
    type: Literal["choose_hero"] = "choose_hero"
    hero: str


class Throw(Move):
    type: Literal["throw"] = "throw"
    shape: Shape


class Pick(Move):
    type: Literal["pick"] = "pick"
    card: int


class Discard(Move):
    type: Literal["discard"] = "discard"
    card: int


class Done(Move):
    type: Literal["done"] = "done"


class Bank(Move):
    type: Literal["bank"] = "bank"
    animal: str


class Steal(Move):
    """Take a random card from ``target`` — or ``card``, one the thief has seen there."""

    type: Literal["steal"] = "steal"
    target: int
    card: int | None = None


class Gift(Move):
    type: Literal["gift"] = "gift"
    card: int
    target: int


class Offer(Move):
    type: Literal["offer"] = "offer"
    card: int


class Want(Move):
    type: Literal["want"] = "want"
    wanted: str


class Cancel(Move):
    type: Literal["cancel"] = "cancel"


class Accept(Move):
    type: Literal["accept"] = "accept"


class Decline(Move):
    type: Literal["decline"] = "decline"


class Play(Move):
    type: Literal["play"] = "play"
    card: int
    target: int | None = None


class Block(Move):
    type: Literal["block"] = "block"
    card: int


class Pass(Move):
    type: Literal["pass"] = "pass"


class Reorder(Move):
    """Swap the cards at ``position`` and ``position + 1`` of one's own hand."""

    type: Literal["reorder"] = "reorder"
    position: int


class Peek(Move):
    type: Literal["peek"] = "peek"
    position: int


class Place(Move):
    type: Literal["place"] = "place"
    card: int


class Take(Move):
    type: Literal["take"] = "take"
    card: int


SolAction = Annotated[
    ChooseHero
    | Throw
    | Pick
    | Discard
    | Done
    | Bank
    | Steal
    | Gift
    | Offer
    | Want
    | Cancel
    | Accept
    | Decline
    | Play
    | Block
    | Pass
    | Reorder
    | Peek
    | Place
    | Take,
    BY_TYPE,
]
