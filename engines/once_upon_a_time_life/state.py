"""The state of a game of Once Upon a Time… Life, and its options.

Tokens are conserved: the bank and the purses always hold the box's tokens.
Every Chance and Bad Luck card has an id (its index in ``chance_cards`` /
``bad_luck_cards``) and lies in exactly one place: its deck, a hand (kept
Master and Virus cards), or shown in an open challenge.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core import Rng
from engines.once_upon_a_time_life.board import BoardSpec, PawnSpec, builtin_board
from engines.once_upon_a_time_life.cards import CardSpec, card_spec
from engines.once_upon_a_time_life.questions import Level, Question, QuestionDeck, builtin_questions
from engines.once_upon_a_time_life.tokens import Tokens

# The box: 35 Leukocyte, 35 Medicine, 84 Globin, 30 Hemo.
BOX = Tokens(hemo=30, globin=84, leukocyte=35, medicine=35)
START_PURSE = Tokens(globin=3, leukocyte=2, medicine=2)
START_BONUS = Tokens(globin=3, leukocyte=2, medicine=2)

Stage = Literal["pawn", "act", "defend", "pick", "answer", "vabanque", "respond", "spoils", "over"]
Purpose = Literal["space", "vabanque", "attack", "counter"]
Threat = Literal["virus", "bacteria"]


class LifeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hemo: int = Field(default=7, ge=1, le=7, description="Hemo tokens that win the game.")
    answer_seconds: int = Field(default=60, ge=10, le=600, description="Time to answer a question.")
    random_first: bool = Field(default=True, description="Draw lots for the first player (else seat 1).")
    # The bots' own tuning, not a player's option: `gametable games` leaves it out.
    bot_easy: float = Field(
        default=0.8,
        ge=0,
        le=1,
        description="Odds a bot answers Easy right.",
        json_schema_extra={"internal": True},
    )
    bot_hard: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Odds a bot answers Hard right.",
        json_schema_extra={"internal": True},
    )
    deck: QuestionDeck | None = Field(default=None, description="A custom question file.")


class OpenQuestion(BaseModel):
    """A question being answered. ``shown[i]`` is the index (in the question's
    options, the correct one first) of the answer shown i-th: the correct
    position lives here only, never in a view."""

    level: Level
    number: int
    shown: list[int]
    answerer: int
    purpose: Purpose

    @property
    def correct(self) -> int:
        return self.shown.index(0)


class Challenge(BaseModel):
    """A Master duel or a Virus attack in progress. ``cards`` are the shown
    Master/Virus cards (Chance card ids), back under the Chance deck at the end."""

    kind: Literal["duel", "virus"]
    by: int
    target: int
    level: Level | None = None
    cards: list[int] = Field(default_factory=list)
    winner: int | None = None
    dice: list[list[int]] = Field(default_factory=list)


class LifeState(BaseModel):
    players: int
    options: LifeOptions
    # A server's own question file; None: the built-in questions (not copied into every saved state).
    custom_questions: QuestionDeck | None = None
    rng: Rng
    chance_cards: list[str]
    bad_luck_cards: list[str]
    chance: list[int]  # top first
    bad_luck: list[int]
    easy_pile: list[int]  # question numbers not yet asked, next last
    hard_pile: list[int]
    bank: Tokens
    purses: list[Tokens]
    hands: list[list[int]]
    # The pawn each seat plays (None: not chosen yet); its body system and START follow from it.
    pawns: list[str | None] = Field(default_factory=list)
    systems: list[int]
    position: list[int]
    away: list[str | None]  # an additional space's id, or None on the loop
    skips: list[int]
    turn: int = 0
    turn_no: int = 1
    stage: Stage = "act"
    last_roll: int | None = None
    threat: Threat | None = None
    question: OpenQuestion | None = None
    earned: int = 0  # Globin the first answer on a Question space earned this turn
    vabanque_used: bool = False
    challenge: Challenge | None = None
    winner: int | None = None

    @property
    def questions(self) -> QuestionDeck:
        return self.custom_questions or builtin_questions()

    @property
    def board(self) -> BoardSpec:
        return builtin_board()

    @model_validator(mode="after")
    def _pawns_of_older_games(self) -> LifeState:
        # A game saved before pawns were chosen had systems by seat: give each its system's first pawn.
        if not self.pawns:
            board = self.board
            self.pawns = [
                next((p.id for p in board.pawn if board.system_index(p.system) == system), None)
                for system in self.systems
            ]
        return self

    def pawn(self, seat: int) -> PawnSpec | None:
        chosen = self.pawns[seat]
        return None if chosen is None else self.board.pawn_named(chosen)

    def free_pawns(self) -> list[PawnSpec]:
        """The box's pawns nobody has taken, in the box's order."""
        return [p for p in self.board.pawn if p.id not in self.pawns]

    def card(self, deck: Literal["chance", "bad_luck"], card: int) -> CardSpec:
        ids = self.chance_cards if deck == "chance" else self.bad_luck_cards
        return card_spec(ids[card])

    def held(self, seat: int, keep: str) -> list[int]:
        """This seat's kept Chance cards of one kind (Master, Virus)."""
        return [c for c in self.hands[seat] if card_spec(self.chance_cards[c]).keep == keep]

    def asked(self) -> Question:
        assert self.question is not None
        return self.questions.level(self.question.level)[self.question.number]

    def others(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(1, self.players)]
