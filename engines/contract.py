"""The types every game and the table share: seats, prompts, choices, events,
views, results, reading aids, a game's description, and an engine's refusals.
:mod:`engines.core` holds the :class:`~engines.core.Engine` base that uses them
(and re-exports them all)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

Seat = int

SEAT_REF = re.compile(r"<seat:(\d+)>")
CHOICE_KEY = re.compile(r"^[A-Za-z0-9_.:+\-]{1,48}$")


def seat_ref(seat: Seat) -> str:
    """The placeholder for a seat's name inside any engine text."""
    return f"<seat:{seat}>"


def render_seats(text: str, name: Callable[[Seat], str]) -> str:
    """Replace every ``<seat:N>`` in ``text`` with ``name(N)``."""
    return SEAT_REF.sub(lambda m: name(int(m.group(1))), text)


class IllegalAction(Exception):
    """A refused move. ``reason`` is one sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GameOver(IllegalAction):
    """The game has ended; nothing more can be played."""


class NotYourTurn(IllegalAction):
    """The seat has no prompt right now."""


class Rng(BaseModel):
    """Seeded randomness kept inside the state.

    Each draw builds a generator from ``(seed, draws)`` and bumps the counter, so
    the same seed and the same actions replay the same game, and a state loaded
    from JSON continues exactly where it stopped. Never put this in a view.
    """

    seed: int
    draws: int = 0

    def _next(self) -> random.Random:
        # A str seed is hashed with SHA-512 by `random`, independent of
        # PYTHONHASHSEED, so replays agree across processes.
        generator = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return generator

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self._next().randrange(n)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._next().shuffle(items)

    def pick(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]


@dataclass(slots=True, kw_only=True)
class Prompt:
    """One seat that may act now, and why.

    ``kind``: ``turn`` (it is this seat's move), ``response`` (a window open to
    several seats, where passing is an action), ``secret`` (a simultaneous hidden
    choice), ``anytime`` (an optional play the game does not wait for, such as an
    Ability during a Dream or a Shooting Star: it never times out, and to hide
    who holds what it is offered to every seat alike, even to seats whose
    ``legal_actions`` are then empty; a bot seat weighs them against letting
    the game go on, see ``engines.ai.consider``). ``text`` is public: prompts
    never depend on hidden information. ``timeout``: seconds this prompt may wait at most
    (a timed question), when shorter than the table's own pace; ``None``: the
    table's pace alone.

    A plain dataclass, like :class:`Choice`: never stored, and asked for at
    every step of a bot's simulated games.
    """

    seat: Seat
    kind: Literal["turn", "response", "secret", "anytime"] = "turn"
    text: str
    timeout: float | None = None

    @property
    def awaited(self) -> bool:
        """The game waits for this seat (so it may time out)."""
        return self.kind != "anytime"


@dataclass(slots=True, kw_only=True)
class Choice:
    """One legal action for one seat, as menus, autocomplete and bots see it.

    ``key`` is short and stable (it rides in a button's custom_id, so at most 48
    characters of ``[A-Za-z0-9_.:+-]``): the same key means the same action for as
    long as it stays legal. ``label`` is the whole action in words (at most 80
    characters). ``steps`` is the menu path a multi-step chooser walks, e.g.
    ``["Steal", "<seat:2>", "Card 3"]``; a one-step action has one step.
    ``detail`` is the text of the card the choice names (or what the move does
    in full), shown beside the label where there is room; empty when the label
    says it all. Like the label it may only hold what the choosing seat may see.
    ``idle``: the move does not advance the game (reordering one's own hand,
    cancelling a half-made move back to where it started). People may make it
    as often as they like; bots never choose it while anything else is legal,
    since a search can prefer such a move for ever and the game would stall.

    A plain dataclass, not a pydantic model: choices are never stored or sent
    as JSON, and a bot's search builds them by the million (as pydantic models
    they took 4.7 µs each, a twentieth of a Time Masters search; now 1.5 µs).
    """

    key: str
    label: str
    steps: list[str]
    action: Any
    detail: str = ""
    idle: bool = False

    def __post_init__(self) -> None:
        if not CHOICE_KEY.match(self.key):
            raise ValueError(f"bad choice key {self.key!r}")
        if not self.steps:
            self.steps = [self.label]


class Event(BaseModel):
    """Something that happened. ``to=None``: public, goes to the table log.
    Otherwise private to the listed seats (told by DM or ephemeral reply)."""

    text: str
    to: list[Seat] | None = None
    kind: str = "info"


S = TypeVar("S", bound=BaseModel)
A = TypeVar("A")


@dataclass(slots=True)
class Transition(Generic[S]):
    """What one action made of a state: the state after it and the events it
    caused. A plain dataclass like :class:`Choice`: it is never stored or sent,
    and every move builds one (as a generic pydantic model, parametrized and
    validated on each move, it cost more than some games' rules)."""

    state: S
    events: list[Event] = field(default_factory=list)


class View(BaseModel):
    """What one seat (or ``viewer=None``: the public and spectators) may see.

    Games subclass this with their own fields. ``headline`` is a one-line public
    summary ("Dream — <seat:1> to act").
    """

    viewer: Seat | None = None
    headline: str = ""


class Result(BaseModel):
    """The end of a game. ``ranking`` lists groups of tied seats, best first."""

    ranking: list[list[Seat]]
    scores: dict[Seat, float] = Field(default_factory=dict)
    teams: dict[str, list[Seat]] | None = None
    summary: str = ""
    # What a score counts, in the singular ("point"); empty: the scores only rank, never shown.
    score_unit: str = "point"

    @property
    def winners(self) -> list[Seat]:
        return list(self.ranking[0]) if self.ranking else []


class CardText(BaseModel):
    """One card of a table's deck as a player reads it: for ``/card`` and any
    picture of its face. ``kind`` is its type in the game's words ("Noble
    animal", "Shooting Star"); ``facts`` are the printed values a card face
    shows (rank, element, side…), in order."""

    key: str
    name: str
    kind: str
    text: str
    facts: dict[str, str] = Field(default_factory=dict)


class RulesSection(BaseModel):
    """One section of a game's rules: ``key`` is short and stable (a command
    option's value), ``decision`` marks the game's own rulings (its RULES.md)."""

    key: str
    title: str
    text: str
    decision: bool = False


class SeatRecap(BaseModel):
    """Why a seat finished where it did: score lines ("Noble Rabbit ×3: +9"),
    and what it held — shown only once the game is over."""

    seat: Seat
    lines: list[str] = Field(default_factory=list)
    held: list[str] = Field(default_factory=list)


class Recap(BaseModel):
    """The end of a game explained: each seat's breakdown and the game's own
    history (such as the Scale day by day)."""

    seats: list[SeatRecap] = Field(default_factory=list)
    history: list[str] = Field(default_factory=list)


def rank_seats(seats: Sequence[Seat], key: Callable[[Seat], Any]) -> list[list[Seat]]:
    """Seats ranked best first by ``key`` (smaller is better); equal keys share a place."""
    ranking: list[list[Seat]] = []
    for seat in sorted(seats, key=key):
        if ranking and key(ranking[-1][0]) == key(seat):
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking


def ranking_score(result: Result, seats: Sequence[Seat]) -> dict[Seat, float]:
    """A finished game as a score per seat in ``[0, 1]``: the winners share 1
    point (each scores 1 in a team game: they won together), the last group 0,
    the groups between in equal steps. A seat missing from the ranking scores 0."""
    scores = dict.fromkeys(seats, 0.0)
    groups = len(result.ranking)
    for place, group in enumerate(result.ranking):
        if place == 0:
            value = 1.0 if result.teams else 1.0 / len(group)
        else:
            value = 0.5 * (groups - 1 - place) / max(groups - 1, 1)
        for seat in group:
            scores[seat] = value
    return scores


class NoOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameInfo(BaseModel):
    """Declarative metadata the bot reads to build lobbies and help."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    key: str
    title: str
    summary: str
    min_players: int
    max_players: int
    hidden_information: bool = True
    options_model: type[BaseModel] = NoOptions
    presets: dict[str, dict[str, Any]] = Field(default_factory=dict)
    help: str = ""


def quote(text: object, limit: int = 40) -> str:
    """User input named in a refusal, quoted and cut to ``limit`` characters, so
    that echoing a 2,500-character value never makes an answer too long to send."""
    flat = " ".join(str(text).split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
