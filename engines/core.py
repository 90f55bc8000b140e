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

The types live in :mod:`engines.contract`, the rules' sections in
:mod:`engines.rules_text`, refusals in words in :mod:`engines.refusals`; all are
re-exported here, the one place games import the contract from.
"""

from __future__ import annotations

import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Generic

from pydantic import BaseModel, TypeAdapter, ValidationError

from engines.actions import parse_move
from engines.contract import (
    CHOICE_KEY,
    SEAT_REF,
    A,
    CardText,
    Choice,
    Event,
    GameInfo,
    GameOver,
    IllegalAction,
    NoOptions,
    NotYourTurn,
    Prompt,
    Recap,
    Result,
    Rng,
    RulesSection,
    S,
    Seat,
    SeatRecap,
    Transition,
    View,
    quote,
    rank_seats,
    ranking_score,
    render_seats,
    seat_ref,
)
from engines.refusals import first_error, load_card_data
from engines.rules_text import rules_sections_from

__all__ = [
    "CHOICE_KEY",
    "SEAT_REF",
    "CardText",
    "Choice",
    "Engine",
    "Event",
    "GameInfo",
    "GameOver",
    "IllegalAction",
    "NoOptions",
    "NotYourTurn",
    "Prompt",
    "Recap",
    "Result",
    "Rng",
    "RulesSection",
    "Seat",
    "SeatRecap",
    "Transition",
    "View",
    "load_card_data",
    "quote",
    "rank_seats",
    "ranking_score",
    "render_seats",
    "rules_sections_from",
    "seat_ref",
]


class Engine(ABC, Generic[S, A]):
    """Base of every game. Subclasses set ``info``, ``state_type`` and
    ``action_type`` (a union of :class:`~engines.actions.Move` models keyed by
    ``type``, see :mod:`engines.actions`) and implement the
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
            raise IllegalAction(f"Bad option — {first_error(error, model)}.") from None
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
        return parse_move(self._actions, data)

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

    # ----- what the balance benchmark counts (defaults: nothing) -----

    def content_of(self, state: S, choice: Choice) -> str | None:
        """The card, space or pick of the game's own content that ``choice``
        plays, buys or takes, in words ("buy Quickening"), for the balance
        benchmark's count of how often each is offered and chosen; ``None``
        for a move that names none (a pass, a roll, paying a cost)."""
        return None

    def first_player(self, state: S) -> Seat | None:
        """The seat that plays first, once the game has settled it (``None``
        before: a pick or a draw still to come), for the balance benchmark's
        shares by turn order; seats play on clockwise from it. Default: seat 0."""
        return 0

    def rounds_of(self, state: S) -> int | None:
        """How many rounds (each seat's turn once, or the game's own day) the
        game has gone, for the balance benchmark's game lengths; ``None``
        where the game keeps no count."""
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
            return Transition(after, self.resolve(after, seat, action))
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
        return Transition(after, events)

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
            found.insert(
                0,
                RulesSection(key="overview", title=self.info.title, text=self.info.help or self.info.summary),
            )
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
