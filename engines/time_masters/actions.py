"""Every move in Time Masters, as a discriminated union on ``type``. Cards are
named by their ids (a player's own cards, or a sphere's level for a purchase:
the hidden second card is bought blind)."""

from __future__ import annotations

from typing import Annotated, Literal

from engines.actions import BY_TYPE, Move


class Activate(Move):
    """Timer phase: activate a full timer; its spells must be cast this turn."""

    type: Literal["activate"] = "activate"
    timer: int


class Delay(Move):
    """Timer phase: place a card from hand face down on a full timer."""

    type: Literal["delay"] = "delay"
    timer: int
    card: int


class Cast(Move):
    """Cast a spell from hand (pay its Kè) or from an activated timer (paid already)."""

    type: Literal["cast"] = "cast"
    card: int


class Focus(Move):
    type: Literal["focus"] = "focus"
    card: int


class SetTimer(Move):
    """Put a timer card from hand into play."""

    type: Literal["set_timer"] = "set_timer"
    card: int


class DiscardTimer(Move):
    """Main phase, at a table that limits timers in play (``max_timers``) and
    with that many set: put a timer card from hand on one's discard pile, so a
    hand of timers that cannot be set is never stuck (decision 3)."""

    type: Literal["discard_timer"] = "discard_timer"
    card: int


class Load(Move):
    """Lay a spell from hand face down on a timer, paying its Kè now."""

    type: Literal["load"] = "load"
    card: int
    timer: int


class Rest(Move):
    """Pass the turn to recover all Kè."""

    type: Literal["rest"] = "rest"


class EndMain(Move):
    """Go on to the Access spheres phase."""

    type: Literal["end_main"] = "end_main"


class Buy(Move):
    type: Literal["buy"] = "buy"
    level: int
    hidden: bool = False


class EndTurn(Move):
    """Finish buying: clean up and pass the turn."""

    type: Literal["end_turn"] = "end_turn"


TmAction = Annotated[
    Activate | Delay | Cast | Focus | SetTimer | DiscardTimer | Load | Rest | EndMain | Buy | EndTurn,
    BY_TYPE,
]
