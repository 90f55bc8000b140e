"""Once Upon a Time… Life — the board and trivia game of the human body.

Implements the rulebook in ``/shared/rules/once-upon-a-time-life.txt``. Where
it is silent (who chooses the duel's spoils, ties in the dice, how a card's
move counts, the ranking of the others) the decisions are in ``RULES.md`` with
the tests covering them. The board, the cards and the questions are this
project's own (``board.toml``, ``cards.toml``, ``questions.toml``).
"""

from engines.once_upon_a_time_life.questions import QuestionDeck, parse_questions
from engines.once_upon_a_time_life.rules import ENGINE, OnceUponATimeLife
from engines.once_upon_a_time_life.state import LifeOptions, LifeState

__all__ = ["ENGINE", "LifeOptions", "LifeState", "OnceUponATimeLife", "QuestionDeck", "parse_questions"]
