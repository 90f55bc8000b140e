"""The step-by-step menu over legal choices."""

from __future__ import annotations

from bot.render.menu import format_path, level, narrow, parse_path
from engines.core import Choice


def choice(key: str, *steps: str) -> Choice:
    return Choice(key=key, label=" ".join(steps), steps=list(steps), action={"k": key})


CHOICES = [
    choice("pass", "Pass"),
    choice("steal:1:0", "Steal", "Bob", "Card 1"),
    choice("steal:1:1", "Steal", "Bob", "Card 2"),
    choice("steal:2:0", "Steal", "Cid", "Card 1"),
    choice("gift:a:1", "Gift", "Rabbit", "Bob"),
]


def test_top_level_lists_distinct_first_steps_in_engine_order() -> None:
    top = level(CHOICES, [])
    assert [o.label for o in top] == ["Pass", "Steal", "Gift"]
    assert top[0].choice is not None and top[0].choice.key == "pass"
    assert top[1].choice is None


def test_walking_the_path_reaches_one_choice() -> None:
    assert [o.label for o in level(CHOICES, [1])] == ["Bob", "Cid"]
    finals = level(CHOICES, [1, 0])
    assert [o.choice.key for o in finals if o.choice] == ["steal:1:0", "steal:1:1"]
    assert [c.key for c in narrow(CHOICES, [1, 1])] == ["steal:2:0"]


def test_a_path_that_leads_nowhere_is_empty() -> None:
    assert narrow(CHOICES, [7]) == [] and level(CHOICES, [1, 5]) == []


def test_paths_round_trip_as_text() -> None:
    assert parse_path(format_path([1, 0, 12])) == [1, 0, 12] and parse_path("") == []
