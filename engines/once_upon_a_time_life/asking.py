"""Asking a question: drawn without repeats until its deck is used up, its four
answers shuffled with the game's seeded randomness; revealed once answered."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.once_upon_a_time_life.questions import Level
from engines.once_upon_a_time_life.state import LifeState, OpenQuestion, Purpose

LETTERS = "ABCD"


def draw_question(state: LifeState, level: Level) -> int:
    pile = state.easy_pile if level == "easy" else state.hard_pile
    if not pile:
        # Every question of this deck has been asked: the deck is shuffled anew.
        pile += range(len(state.questions.level(level)))
        state.rng.shuffle(pile)
    return pile.pop()


def ask(state: LifeState, level: Level, answerer: int, purpose: Purpose) -> list[Event]:
    number = draw_question(state, level)
    shown = [0, 1, 2, 3]
    state.rng.shuffle(shown)
    state.question = OpenQuestion(level=level, number=number, shown=shown, answerer=answerer, purpose=purpose)
    state.stage = "answer"
    text = state.questions.level(level)[number].text
    return [Event(text=f"{level.capitalize()} question for {seat_ref(answerer)}: {text}")]


def shown_answers(state: LifeState) -> list[str]:
    question = state.question
    assert question is not None
    options = state.asked().options
    return [options[i] for i in question.shown]


def reveal(state: LifeState, seat: int, choice: int | None) -> list[Event]:
    """The public outcome of an answer: what was said, and the right answer."""
    question = state.question
    assert question is not None
    answers = shown_answers(state)
    right = f"{LETTERS[question.correct]}: {answers[question.correct]}"
    me = seat_ref(seat)
    if choice is None:
        return [Event(text=f"{me} gives no answer. The answer was {right}.")]
    if choice == question.correct:
        return [Event(text=f"{me} answers {right} — correct!")]
    return [Event(text=f"{me} answers {LETTERS[choice]}: {answers[choice]} — wrong. The answer was {right}.")]
