"""Question decks as data: an Easy and a Hard deck, each question with its
correct answer and three wrong ones. A server may load its own file (another
language, another subject) through :func:`parse_questions`."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core import load_card_data

Level = Literal["easy", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "hard")
ANSWER_MAX = 64  # "Answer B: " + an answer must fit a 80-character label


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=3, max_length=300)
    answer: str = Field(min_length=1, max_length=ANSWER_MAX)
    wrong: list[str] = Field(min_length=3, max_length=3)

    @model_validator(mode="after")
    def _distinct(self) -> Question:
        if any(not 1 <= len(w) <= ANSWER_MAX for w in self.wrong):
            raise ValueError(f"every wrong answer is 1–{ANSWER_MAX} characters ({self.text!r})")
        answers = [a.strip().casefold() for a in self.options]
        if len(set(answers)) != 4:
            raise ValueError(f"the four answers must differ ({self.text!r})")
        return self

    @property
    def options(self) -> list[str]:
        """The four answers, the correct one first (shuffled when asked)."""
        return [self.answer, *self.wrong]


class QuestionDeck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "Custom questions"
    easy: list[Question] = Field(min_length=1, max_length=500)
    hard: list[Question] = Field(min_length=1, max_length=500)

    @model_validator(mode="after")
    def _no_repeats(self) -> QuestionDeck:
        texts = [q.text.strip().casefold() for q in [*self.easy, *self.hard]]
        doubles = sorted({t for t in texts if texts.count(t) > 1})
        if doubles:
            raise ValueError(f"a question is asked twice: {doubles[0]!r}")
        return self

    def level(self, level: Level) -> list[Question]:
        return self.easy if level == "easy" else self.hard

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> QuestionDeck:
        # A question deck never changes during a game: copying a state may share it.
        return self


def parse_questions(toml_text: str) -> QuestionDeck:
    """A question deck from TOML text; :class:`IllegalAction` explains what is wrong."""
    return load_card_data(toml_text, QuestionDeck, what="question")


@cache
def builtin_questions() -> QuestionDeck:
    return parse_questions((Path(__file__).parent / "questions.toml").read_text(encoding="utf-8"))
