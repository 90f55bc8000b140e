"""The engine contract: what every game implements, and the types they share.

A game is a subclass of :class:`Engine`. The bot, the terminal table, the random
bot, timeouts and the tests drive every game through this surface alone, so no
code outside ``engines/`` ever needs to know which game it is running.

Seats are the integers ``0 .. players-1`` in turn order. The table maps seats to
people; an engine never sees a user id, so no Discord id can leak into a state,
a view or the event log.

Text that names a seat (event lines, labels, view strings) writes it as
``<seat:N>`` (see :func:`seat_ref`); the presentation layer swaps in the
player's display name. That keeps engines free of names and lets one event be
rendered for Discord, the terminal and the tests alike.
"""

from __future__ import annotations

import random
import re
import sys
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

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


class Prompt(BaseModel):
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
    """

    seat: Seat
    kind: Literal["turn", "response", "secret", "anytime"] = "turn"
    text: str
    timeout: float | None = None

    @property
    def awaited(self) -> bool:
        """The game waits for this seat (so it may time out)."""
        return self.kind != "anytime"


class Choice(BaseModel):
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
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    key: str
    label: str
    steps: list[str]
    action: Any
    detail: str = ""
    idle: bool = False

    def model_post_init(self, __context: Any) -> None:
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


class Transition(BaseModel, Generic[S]):
    state: S
    events: list[Event] = Field(default_factory=list)


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


# "(setup: `test_x`)", "(cosmic::some_test)": where a ruling is proved.
_DECISION_TESTS = re.compile(r"\s*\([^()]*(?:`test_|\b\w+::\w+|\ball tests\b)[^)]*\)")
# A sentence naming a test file: its dots inside backticks ("`test_x.py`") do not end it.
_TEST_SENTENCE = re.compile(r"[^.\n]*`tests?[/_][^`]*`[^.]*\.")
_PROOF_COLUMNS = ("#", "test", "tests")


def _plain_ruling(text: str) -> str:
    """A RULES.md section as players read it: tables as bullet lines, and the
    references to the tests that prove each ruling left out."""
    lines: list[str] = []
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            lines.append(line)
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
        elif not all(set(c) <= set("-: ") for c in cells):
            kept = [c for c, h in zip(cells, header, strict=False) if h not in _PROOF_COLUMNS and c]
            lines.append("• " + " — ".join(kept))
    plain = _DECISION_TESTS.sub("", "\n".join(lines))
    return _TEST_SENTENCE.sub("", plain).strip()


def rules_sections_from(folder: Path) -> list[RulesSection]:
    """A game's rules from the files beside its code: ``rules.toml`` (sections
    written from the rulebook: ``[[section]]`` with key, title, text) and the
    decisions in ``RULES.md`` (one section per ``## `` heading, with the
    references to tests left out: players need the ruling, not its proof)."""
    return list(_read_rules(folder))


@cache
def _read_rules(folder: Path) -> tuple[RulesSection, ...]:
    # Read once per process: autocomplete asks on every keystroke.
    sections: list[RulesSection] = []
    summary = folder / "rules.toml"
    if summary.is_file():
        data = tomllib.loads(summary.read_text(encoding="utf-8"))
        sections += [RulesSection.model_validate(item) for item in data.get("section", [])]
    decisions = folder / "RULES.md"
    if decisions.is_file():
        for block in decisions.read_text(encoding="utf-8").split("\n## ")[1:]:
            title, _, body = block.partition("\n")
            text = _plain_ruling(body)
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            key = f"decisions-{slug}"[:48].rstrip("-")
            sections.append(RulesSection(key=key, title=title.strip(), text=text, decision=True))
    return tuple(sections)


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


_WORDS = {
    "missing": "is missing",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "bool_parsing": "must be true or false",
    "bool_type": "must be true or false",
    "string_type": "must be text",
    "list_type": "must be a list",
    "dict_type": "must be a table of settings",
    "model_type": "must be a table of settings",
    "model_attributes_type": "must be a table of settings",
    "too_short": "has too few entries",
    "too_long": "has too many entries",
    "string_too_short": "is too short",
    "string_too_long": "is too long",
    "recursion_loop": "is nested too deeply",
}
_LIMITS = {
    "greater_than_equal": ("ge", "must be at least"),
    "less_than_equal": ("le", "must be at most"),
    "greater_than": ("gt", "must be more than"),
    "less_than": ("lt", "must be less than"),
}


def _first_error(error: ValidationError, model: type[BaseModel] | None = None, noun: str = "option") -> str:
    """The first problem of a failed validation as a short phrase in our own words —
    never pydantic's ("Extra inputs are not permitted") — naming the valid keys
    where a key was wrong, with every piece of user input clipped."""
    first = error.errors()[0]
    loc = tuple(p for p in first.get("loc", ()) if p != "__root__")
    kind, ctx = first["type"], first.get("ctx") or {}
    where = ".".join(str(p) for p in loc)
    where = quote(where, 60)[1:-1] if where else ""
    if kind == "extra_forbidden":
        fields = ", ".join(_fields_at(model, loc[:-1]))
        name = quote(loc[-1] if loc else "")
        if len(loc) <= 1:
            return f"there is no {noun} {name}; the {noun}s are {fields}" if fields else f"no {noun} {name}"
        inside = quote(".".join(str(p) for p in loc[:-1]), 40)[1:-1]
        return f"there is no {name} in {inside}" + (f"; valid there: {fields}" if fields else "")
    if kind in ("value_error", "assertion_error"):
        # Our own validators' sentences; they may quote card names from a file.
        text = str(ctx.get("error", first["msg"])).removeprefix("Value error, ")
        text = text if len(text) <= 200 else text[:199] + "…"
        return f"{where}: {text}" if where else text
    if kind in ("literal_error", "enum"):
        phrase = f"must be {str(ctx.get('expected', 'one of the listed values'))[:200]}"
    elif kind in _LIMITS:
        key, words = _LIMITS[kind]
        phrase = f"{words} {ctx.get(key)}"
    else:
        phrase = _WORDS.get(kind, "is not valid")
    return f"{where} {phrase}" if where else f"the value {phrase}"


def _fields_at(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> list[str]:
    """The field names of the model found by walking ``loc`` down from ``model``."""
    for part in loc:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        model = _model_in(field.annotation) if field is not None else None
    return list(model.model_fields) if model is not None else []


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for inner in getattr(annotation, "__args__", ()):
        found = _model_in(inner)
        if found is not None:
            return found
    return None


M = TypeVar("M", bound=BaseModel)


def load_card_data(toml_text: str, model: type[M], what: str = "deck") -> M:
    """Card content (a game's deck file, built-in or a server's own) from TOML
    text, validated by ``model``; a bad file is refused with one sentence that
    says where and what is wrong."""
    try:
        data = tomllib.loads(toml_text)
        return model.model_validate(data)
    except tomllib.TOMLDecodeError as error:
        raise IllegalAction(f"The {what} file is not valid TOML ({quote(error, 120)[1:-1]}).") from None
    except ValidationError as error:
        raise IllegalAction(f"The {what} file is not valid — {_first_error(error, model, 'key')}.") from None
    except RecursionError:
        raise IllegalAction(f"The {what} file is nested too deeply.") from None


class Engine(ABC, Generic[S, A]):
    """Base of every game. Subclasses set ``info``, ``state_type`` and
    ``action_type`` (a model or an annotated union of models) and implement the
    abstract methods. :meth:`apply` fixes the order of validation for every game:
    game over → seat may act now → action well-formed → game's own check →
    action among the legal ones → resolve on a copy of the state."""

    info: GameInfo
    state_type: type[S]
    action_type: Any

    def __init__(self) -> None:
        self._actions: TypeAdapter[A] = TypeAdapter(self.action_type)

    # ----- options, states and actions from the outside world -----

    def parse_options(self, raw: Mapping[str, Any] | None = None) -> BaseModel:
        """Options from a dict (a preset name under ``preset`` is expanded)."""
        data = dict(raw or {})
        preset = data.pop("preset", None)
        if preset is not None:
            if not isinstance(preset, str) or preset not in self.info.presets:
                names = ", ".join(self.info.presets) or "none"
                raise IllegalAction(f"Unknown variant {quote(preset)}. Variants: {names}.")
            data = {**self.info.presets[preset], **data}
        model = self.info.options_model
        try:
            return model.model_validate(data)
        except ValidationError as error:
            if not model.model_fields:
                raise IllegalAction(f"{self.info.title} has no options.") from None
            raise IllegalAction(f"Bad option — {_first_error(error, model)}.") from None
        except RecursionError:
            raise IllegalAction("Those options are nested too deeply.") from None

    def seat_range(self, options: BaseModel) -> tuple[int, int]:
        """How many seats these options allow (some variants allow more)."""
        return self.info.min_players, self.info.max_players

    def check_players(self, players: int, options: BaseModel) -> None:
        low, high = self.seat_range(options)
        if not low <= players <= high:
            raise IllegalAction(f"{self.info.title} needs {low}–{high} players, not {players}.")

    def load_state(self, data: str | bytes | Mapping[str, Any]) -> S:
        if isinstance(data, (str, bytes)):
            return self.state_type.model_validate_json(data)
        return self.state_type.model_validate(data)

    def dump_state(self, state: S) -> str:
        return state.model_dump_json()

    def parse_action(self, data: Any) -> A:
        try:
            return self._actions.validate_python(data)
        except ValidationError as error:
            raise IllegalAction(f"That is not a move this game knows ({_first_error(error)}).") from None

    # ----- the contract -----

    @abstractmethod
    def setup(self, players: int, options: BaseModel, seed: int) -> S:
        """A new game for ``players`` seats."""

    @abstractmethod
    def prompts(self, state: S) -> list[Prompt]:
        """Who may act now. Must not depend on hidden information."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[Choice]:
        """Every legal action of ``seat`` now (empty when it has no prompt)."""

    @abstractmethod
    def resolve(self, state: S, seat: Seat, action: A) -> list[Event]:
        """Carry out a validated action on ``state`` (a private copy: mutate it)."""

    @abstractmethod
    def view(self, state: S, viewer: Seat | None) -> View:
        """What ``viewer`` may see; ``None`` is the public."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The final ranking, or ``None`` while the game goes on."""

    def headline(self, state: S) -> str:
        """The public view's headline alone (``view(state, None).headline``).
        Every save writes it into the table lists, so a game whose full view is
        costly to build may say it more cheaply; it must say exactly the same."""
        return self.view(state, None).headline

    def validate(self, state: S, seat: Seat, action: A) -> None:
        """Raise :class:`IllegalAction` with a precise reason for a bad action.
        Optional: anything not caught here is refused with a general sentence
        when it is missing from :meth:`legal_actions`."""

    def default_action(self, state: S, seat: Seat) -> A:
        """The action taken for a seat that times out: pass where passing is
        legal, else the first legal choice. Games override for safer picks."""
        choices = self.legal_actions(state, seat)
        if not choices:
            raise NotYourTurn("You have nothing to do right now.")
        for choice in choices:
            if choice.key == "pass":
                return choice.action  # type: ignore[no-any-return]
        return choices[0].action  # type: ignore[no-any-return]

    # ----- what the bots need (defaults that fit any game) -----

    def determinize(self, state: S, seat: Seat, rng: random.Random) -> S | None:
        """A full state that ``seat`` cannot tell from ``state``: everything it
        sees stays (its view, the prompts, its legal actions), everything it
        cannot see is drawn afresh from ``rng`` — other hands, deck orders,
        secret picks, the state's own :class:`Rng`. The sample must depend only
        on what the seat sees and on ``rng``, so a bot searching from samples
        never learns the true hidden state.

        The default copies the state of a game without hidden information and
        returns ``None`` for a game with hidden information that does not
        override this: such a game cannot be sampled, and the bots play it at
        random rather than search the true state."""
        if self.info.hidden_information:
            return None
        return state.model_copy(deep=True)

    def evaluate(self, state: S) -> dict[Seat, float]:
        """How well each seat stands, in ``[0, 1]`` (1: sure to win), for a
        search cut off before the end. A finished game scores by its ranking;
        the default scores an unfinished one 0.5 for every seat. Games override
        this with what they know (points, position) to make the bots stronger;
        it may read hidden information: it only ever sees sampled states."""
        result = self.result(state)
        if result is not None:
            return ranking_score(result, self.seats_of(state))
        return dict.fromkeys(self.seats_of(state), 0.5)

    def seats_of(self, state: S) -> list[Seat]:
        """Every seat of this game (from the ``players`` field most states keep)."""
        return list(range(int(getattr(state, "players", 0))))

    def bot_policy(self, state: S, seat: Seat, level: str, rng: random.Random) -> Choice | None:
        """A move a bot at ``level`` (easy/normal/hard) makes without searching,
        for a step a game models itself (a quiz answer right with set odds), or
        ``None`` (the default): the bot searches as usual."""
        return None

    def rollout_choice(self, state: S, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
        """The move a bot's quick simulated game makes for ``seat``: uniformly
        random by default; games may override it with a cheap heuristic."""
        return rng.choice(choices)

    def moves(self, state: S, seat: Seat) -> list[Choice]:
        """The legal choices a bot's search walks: exactly the keys, actions and
        ``idle`` flags of :meth:`legal_actions`, in the same order, but their
        words (``label``, ``steps``, ``detail``) may be left bare, since no one
        reads them. A search asks this for every move of every simulated game,
        so a game whose words cost more than its rules (card texts, names)
        builds them only for people. Default: :meth:`legal_actions`."""
        return self.legal_actions(state, seat)

    def counts_in_rollout(self, choice: Choice) -> bool:
        """Whether a move of a bot's quick simulated game counts toward its
        level's rollout depth (by default every move does). A game whose turns
        are made of many small steps (a pass in an action round, a cost paid
        card by card) lets those go free, so that the depth reaches as far into
        the game at every table size: three players pass a round in three moves,
        two in two. The search still ends a simulated game after a few times
        the depth in moves of any kind."""
        return True

    def apply(
        self,
        state: S,
        seat: Seat,
        action: A | Mapping[str, Any],
        *,
        in_place: bool = False,
        legal: bool = False,
    ) -> Transition[S]:
        """Validate and carry out one action. The given state is left untouched
        unless ``in_place`` — for callers that own a private copy (the table
        service loads a fresh one from JSON for every change), which saves a
        deep copy per action. A refusal may then leave that copy half-changed,
        so such a caller must drop it on :class:`IllegalAction`.

        ``legal``: the caller took ``action`` from ``legal_actions(state, seat)``
        on this very state, so the checks are already answered and are skipped
        (computing the legal actions again is most of a move's cost)."""
        if legal and not isinstance(action, Mapping):
            after = state if in_place else state.model_copy(deep=True)
            return Transition[S](state=after, events=self.resolve(after, seat, action))
        if self.result(state) is not None:
            raise GameOver("The game is over.")
        if all(p.seat != seat for p in self.prompts(state)):
            raise NotYourTurn("It is not your turn.")
        parsed: A = self.parse_action(action) if isinstance(action, Mapping) else action
        self.validate(state, seat, parsed)
        if all(c.action != parsed for c in self.legal_actions(state, seat)):
            raise IllegalAction("That move is not possible right now.")
        after = state if in_place else state.model_copy(deep=True)
        events = self.resolve(after, seat, parsed)
        return Transition[S](state=after, events=events)

    # ----- reading aids (defaults let a new game work without them) -----

    def cards(self, options: BaseModel) -> list[CardText]:
        """Every distinct card of the deck these options play with (a server's
        custom deck included), for ``/card``. Games without cards list none."""
        return []

    def rules_sections(self) -> list[RulesSection]:
        """The rules in sections (setup, a turn, scoring, variants) and the
        game's own decisions, read from ``rules.toml`` and ``RULES.md`` beside
        the game's package; without them, the game's help text."""
        module = sys.modules.get(type(self).__module__)
        folder = Path(module.__file__).parent if module is not None and module.__file__ else None
        found = rules_sections_from(folder) if folder is not None else []
        if not any(not s.decision for s in found):
            found.insert(0, RulesSection(key="overview", title=self.info.title,
                                         text=self.info.help or self.info.summary))
        return found

    def recap(self, state: S) -> Recap:
        """Why the game ended as it did, seat by seat; shown when it is over,
        so it may name everything each seat held. Default: nothing beyond the
        result's scores."""
        return Recap()

    def choice(self, state: S, seat: Seat, key: str) -> Choice:
        """The legal choice with this key, or :class:`IllegalAction`. A move
        looks up only its own choice: a game may find it without building
        every choice's reading aids, as long as it returns exactly the choice
        that ``legal_actions`` lists under ``key``."""
        for option in self.legal_actions(state, seat):
            if option.key == key:
                return option
        raise IllegalAction("That move is not possible right now.")
