"""Every move a seat can make, as a discriminated union on ``type``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from engines.actions import BY_TYPE, Move
from engines.scales_of_influence.state import Side


class Receive(Move):
    type: Literal["receive"] = "receive"
    how: Literal["draw", "energy"]


class PlayCard(Move):
    """Release: a Hand card to a free Reading placement (0 Past, 1 Present, 2 Future)."""

    type: Literal["play"] = "play"
    card: int
    slot: int = Field(ge=0, le=2)


class GiveInfluence(Move):
    """Release: secretly draw 2 Influence tokens."""

    type: Literal["give"] = "give"


class PickToken(Move):
    """The secret half of Give Influence: which drawn token goes into which bag."""

    type: Literal["token"] = "token"
    value: int
    side: Side


class ChannelDraw(Move):
    type: Literal["channel_draw"] = "channel_draw"


class ChannelTake(Move):
    type: Literal["channel_take"] = "channel_take"
    target: int


class ChannelClear(Move):
    type: Literal["channel_clear"] = "channel_clear"
    slot: int = Field(ge=0, le=2)


class Discard(Move):
    type: Literal["discard"] = "discard"
    card: int


class Pass(Move):
    type: Literal["pass"] = "pass"


class Eclipse(Move):
    """Moon: cover a Reading card with a higher Hand card of its element."""

    type: Literal["eclipse"] = "eclipse"
    card: int
    slot: int = Field(ge=0, le=2)


class Resolve(Move):
    type: Literal["resolve"] = "resolve"
    target: int | None = None
    side: Side | None = None


class Weigh(Move):
    type: Literal["weigh"] = "weigh"


class ShootingStar(Move):
    """Start a Cosmic Event."""

    type: Literal["star"] = "star"
    card: int


class EclipseStar(Move):
    """Cover the Shooting Star on top with a higher one (costs 1 Energy)."""

    type: Literal["eclipse_star"] = "eclipse_star"
    card: int


class ShamanPower(Move):
    type: Literal["shaman"] = "shaman"
    power: Literal["block", "scale", "token"]
    side: Side | None = None
    value: int | None = None


class ChooseShaman(Move):
    type: Literal["choose_shaman"] = "choose_shaman"
    seat: int


SoiAction = Annotated[
    Receive
    | PlayCard
    | GiveInfluence
    | PickToken
    | ChannelDraw
    | ChannelTake
    | ChannelClear
    | Discard
    | Pass
    | Eclipse
    | Resolve
    | Weigh
    | ShootingStar
    | EclipseStar
    | ShamanPower
    | ChooseShaman,
    BY_TYPE,
]
