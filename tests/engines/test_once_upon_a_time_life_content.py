"""The game's content as data: the board, the Chance and Bad Luck decks, the
question decks (built-in and a server's own), and their validation."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from engines.core import IllegalAction
from engines.once_upon_a_time_life import ENGINE, parse_questions
from engines.once_upon_a_time_life.board import TASKS, builtin_board
from engines.once_upon_a_time_life.cards import builtin_cards
from engines.once_upon_a_time_life.questions import ANSWER_MAX, builtin_questions
from tests.engines.test_once_upon_a_time_life_helpers import act, new_game

QUESTIONS = Path(ENGINE.__module__.replace(".", "/")).parent / "questions.toml"


def test_53_easy_and_53_hard_questions_each_with_one_right_and_three_distinct_wrong_answers() -> None:
    deck = builtin_questions()
    assert len(deck.easy) == 53 and len(deck.hard) == 53
    texts = [q.text.casefold() for q in [*deck.easy, *deck.hard]]
    assert len(set(texts)) == len(texts), "a question is repeated"
    for q in [*deck.easy, *deck.hard]:
        answers = [a.casefold() for a in q.options]
        assert len(q.wrong) == 3 and len(set(answers)) == 4, q.text
        assert q.answer not in q.wrong and q.text.endswith("?"), q.text
        assert all(len(a) <= ANSWER_MAX for a in q.options)


def test_no_question_names_its_own_answer() -> None:
    deck = builtin_questions()
    for q in [*deck.easy, *deck.hard]:
        assert not re.search(rf"\b{re.escape(q.answer)}\b", q.text, re.IGNORECASE), q.text


def test_chance_and_bad_luck_hold_45_cards_each_with_masters_and_viruses() -> None:
    cards = builtin_cards()
    assert sum(c.copies for c in cards.chance) == 45 and sum(c.copies for c in cards.bad_luck) == 45
    kept = Counter(c.keep for c in cards.chance for _ in range(c.copies) if c.keep)
    assert kept["master"] >= 4 and kept["virus"] >= 4
    places = {p.id for p in builtin_board().place}
    used = {e.place for c in [*cards.chance, *cards.bad_luck] for e in c.effects if e.do == "goto"}
    assert used == places, "every additional space is reached by some card, and only those"


def test_the_board_has_four_systems_every_space_type_and_four_additional_spaces() -> None:
    board = builtin_board()
    assert len(board.system) == 4 and len(board.place) == 4
    assert {p.name for p in board.place} == {"Sports field", "Park", "Hospital", "Pharmacy"}
    kinds = Counter(board.kind(i) for i in range(board.size))
    assert kinds["start"] == 4 and all(kinds[k] >= 4 for k in TASKS)
    assert [board.kind(board.start(s)) for s in range(4)] == ["start"] * 4


def test_a_server_may_play_its_own_question_file() -> None:
    text = """
name = "Capitals"
[[easy]]
text = "What is the capital of France?"
answer = "Paris"
wrong = ["Lyon", "Nice", "Lille"]
[[hard]]
text = "What is the capital of Australia?"
answer = "Canberra"
wrong = ["Sydney", "Melbourne", "Perth"]
"""
    state = new_game(deck=tomllib.loads(text))
    assert state.questions.name == "Capitals" and state.options.deck is None
    state.stage = "pick"
    state, events = act(state, 0, "question:hard")
    assert "capital of Australia" in events[0].text
    assert sorted(c.label for c in ENGINE.legal_actions(state, 0))[0].startswith("Answer A:")
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state


def _file(easy: str, hard: str = "text='Why R?'\nanswer='x'\nwrong=['y','z','w']") -> str:
    return f"[[easy]]\n{easy}\n[[hard]]\n{hard}"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (_file("text='Why Q?'\nanswer='a'\nwrong=['b','c','A']"), "must differ"),
        (
            _file(
                "text='Why Q?'\nanswer='a'\nwrong=['b','c','d']",
                "text='Why Q?'\nanswer='x'\nwrong=['y','z','w']",
            ),
            "asked twice",
        ),
        (_file("text='Why Q?'\nanswer='a'\nwrong=['b','c']"), "wrong"),
        ("easy = 3", "not valid"),
        ("[[easy", "not valid TOML"),
    ],
)
def test_a_bad_question_file_is_refused_with_a_reason(text: str, said: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_questions(text)
    assert said in refused.value.reason
    with pytest.raises(IllegalAction):
        ENGINE.parse_options({"deck": {"easy": []}})


def test_the_question_file_is_the_one_shipped() -> None:
    assert parse_questions(QUESTIONS.read_text(encoding="utf-8")) == builtin_questions()
